/**
 * The generated Python, read by Python: every .py of every preset compiles; every keyword of every TRL config call in
 * the files (found with `ast`) is a field of that class at the pinned release; common.py's rewards give the lab's
 * numbers on the same completions; the calculator and the tool-use demonstrations behave. Skipped without python3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeastReward, correctnessReward, formatReward, hackableDigitReward, lengthPenalty } from '@/lib/tasks/rewards';
import { batchLayout } from '@/lib/export/mapping';
import { buildProject, exportSettings } from './helpers';
import { everyProject, hasPython, python, TRL_FIELDS } from './helpers';

const buildProjectFor = (method: 'dpo') => buildProject(method, exportSettings(method, 'default'), 'default');

const CLASSES = ['SFTConfig', 'GRPOConfig', 'DPOConfig', 'LoraConfig'] as const;

let root = '';
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-py-'));
  for (const { project } of everyProject()) {
    for (const file of project.files) {
      const target = path.join(root, project.name, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.text);
    }
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** {file: {class: [keywords]}} for every call of a TRL config class, and the files that failed to compile. */
const INSPECT = `
import ast, json, pathlib, py_compile, sys
calls, dtypes, errors = {}, {}, []
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        py_compile.compile(str(path), doraise=True, cfile=str(path) + "c")  # inside the temporary folder
    except py_compile.PyCompileError as error:
        errors.append(str(error))
        continue
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ${JSON.stringify(CLASSES)}:
            calls.setdefault(str(path), {}).setdefault(node.func.id, []).extend(k.arg for k in node.keywords)
            if node.func.id != "LoraConfig":
                init = [k.value for k in node.keywords if k.arg == "model_init_kwargs"]
                dtypes.setdefault(str(path), []).append(ast.literal_eval(init[0]).get("dtype") if init else None)
print(json.dumps({"calls": calls, "dtypes": dtypes, "errors": errors, "files": len(list(pathlib.Path(sys.argv[1]).rglob("*.py")))}))
`;

describe.skipIf(!hasPython)('the generated Python', () => {
  it('compiles, and passes TRL configs only keywords they have at the pinned release', () => {
    const { calls, errors, files } = python(INSPECT, [root]) as { calls: Record<string, Record<string, string[]>>; errors: string[]; files: number };
    expect(errors).toEqual([]);
    expect(files).toBeGreaterThan(100);
    const seen = new Set<string>();
    for (const [file, byClass] of Object.entries(calls)) {
      for (const [cls, keywords] of Object.entries(byClass)) {
        seen.add(cls);
        const known = new Set(TRL_FIELDS[cls as (typeof CLASSES)[number]].fields);
        for (const k of keywords) expect(known.has(k), `${path.relative(root, file)}: ${cls}(${k}=…)`).toBe(true);
        expect(new Set(keywords).size, `${file}: a keyword twice in ${cls}`).toBe(keywords.length);
      }
    }
    expect([...seen].sort()).toEqual([...CLASSES].sort());
  });

  it('every trainer script loads its model in a dtype it names: fp32 for full fine-tuning, bf16 under LoRA', () => {
    const { dtypes } = python(INSPECT, [root]) as { dtypes: Record<string, (string | null)[]> };
    const scripts = Object.keys(dtypes);
    expect(scripts.filter((f) => /train_(sft|grpo|dpo|agent)\.py$/.test(f)).length).toBeGreaterThan(20);
    for (const [file, found] of Object.entries(dtypes)) {
      const lora = fs.readFileSync(file, 'utf8').includes('LoraConfig(');
      for (const dtype of found) expect(dtype, path.relative(root, file)).toBe(lora ? 'bfloat16' : 'float32');
    }
  });

  it('common.py rewards the lab’s completions as lib/tasks/rewards.ts does', () => {
    const dir = path.join(root, 'trl-agent-default');
    const completions = ['#### 52', '12,5 #### 52', '#### 052', '#### 53', '#### 97', '52', '####52', '#### -4', '#### 5 2', 'a#b #### 52', '#### 1234567890', '', '12,5 #### 52 extra'];
    const answers = completions.map((_, i) => (i === 7 ? '-4' : '52'));
    const references = answers.map((a) => `#### ${a}`);
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
import common
c = json.loads(sys.argv[1]); a = json.loads(sys.argv[2]); r = json.loads(sys.argv[3])
print(json.dumps({
    "correctness": common.correctness_reward(c, answer=a),
    "format": common.format_reward(c),
    "at_least": common.at_least_reward(c, answer=a),
    "digits": common.digits_reward(c, answer=a),
    "length": common.length_penalty(c, answer=a, solution=r),
    "conversational": common.correctness_reward([[{"role": "assistant", "content": x}] for x in c], answer=a),
}))`;
    const got = python(script, [JSON.stringify(completions), JSON.stringify(answers), JSON.stringify(references)]) as Record<string, number[]>;
    const ctx = { answers, references };
    expect(got.correctness).toEqual(correctnessReward(completions, ctx));
    expect(got.conversational).toEqual(correctnessReward(completions, ctx));
    expect(got.format).toEqual(formatReward(completions, ctx));
    expect(got.at_least).toEqual(atLeastReward(completions, ctx));
    expect(got.digits).toEqual(hackableDigitReward(completions, ctx));
    got.length.forEach((v, i) => expect(v).toBeCloseTo(lengthPenalty(completions, ctx)[i], 12));
    expect(got.correctness.filter((x) => x === 1).length).toBeGreaterThan(2); // the cases are not all zeros
  });

  it('common.batch_layout splits the lab’s batch over WORLD_SIZE processes as batchLayout does, and refuses what does not split', () => {
    const dir = path.join(root, 'trl-grpo-default');
    const cases = [64, 48, 32, 12, 8, 6].flatMap((batch) => [8, 4].flatMap((cap) => [1, 2, 3, 8].map((processes) => ({ batch, cap, processes }))));
    const script = `
import json, os, sys
sys.path.insert(0, ${JSON.stringify(dir)})
import common
out = []
for c in json.loads(sys.argv[1]):
    os.environ["WORLD_SIZE"] = str(c["processes"])
    try:
        micro, accumulation = common.batch_layout(c["batch"], c["cap"])
        out.append({"micro": micro, "accumulation": accumulation})
    except SystemExit as stop:
        out.append(str(stop))
print(json.dumps(out))`;
    const got = python(script, [JSON.stringify(cases)]) as ({ micro: number; accumulation: number } | string)[];
    cases.forEach((c, i) => {
      const expected = batchLayout(c.batch, c.cap, c.processes);
      if (expected) expect(got[i], JSON.stringify(c)).toEqual(expected);
      else expect(got[i], JSON.stringify(c)).toBe(`The lab's batch of ${c.batch} examples per optimizer step does not split over ${c.processes} processes: use a number of GPUs that divides ${c.batch}.`);
    });
    expect(got.filter((g) => typeof g === 'string').length).toBeGreaterThan(3); // some cases do not split
  });

  it('reads GSM8K’s format: the answer on its own line, commas dropped, <<…>> calculations as calculator calls', () => {
    const dir = path.join(root, 'trl-agent-default');
    const gsm8k = 'Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether.\n#### 1,072';
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
import common
s = json.loads(sys.argv[1])
messages = common.tool_use_messages(s)
out = {
  "answer": common.answer_number(s),
  "solution": common.solution_text(s),
  "format": common.format_reward([common.solution_text(s)]),
  "correct": common.correctness_reward([common.solution_text(s)], answer=[common.answer_number(s)]),
  "messages": messages,
  "before": [common.text_before_calls(t) for t in ['Albert has 50*30 = \\n<tool_call>\\n{"name": "calculator"}\\n</tool_call>', 'x\\n\\n<tool_call>{}</tool_call>', '#### 5', 'a = <tool_call>{}</tool_call>']],
  "calls": common.parse_tool_calls('x <tool_call>\\n{"name": "calculator", "arguments": {"expression": "3*4"}}\\n</tool_call> <tool_call>{bad}</tool_call>'),
  "calc": [common.calculator("48/2"), common.calculator("0.1*3"), common.calculator("1,000+1"), common.calculator("-(2**3)")],
  "cost": common.tool_cost_reward(["#### 1", [{"role": "assistant", "content": ""}, {"role": "tool", "content": "2"}, {"role": "tool", "content": "3"}]]),
}
refused = []
for bad in ["__import__('os')", "2**100", "x", "1/0", "a" * 300]:
    try:
        common.calculator(bad)
    except Exception as e:
        refused.append(type(e).__name__)
out["refused"] = refused
print(json.dumps(out))`;
    const got = python(script, [JSON.stringify(gsm8k)]) as Record<string, unknown>;
    expect(got.answer).toBe('1072');
    expect(got.solution).toBe('Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether.\n#### 1072');
    expect(got.format).toEqual([1]);
    expect(got.correct).toEqual([1]);
    const messages = got.messages as { role: string; content: string; tool_calls: unknown[]; name: string }[];
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(messages[0]).toEqual({ role: 'assistant', content: 'Natalia sold 48/2 = ', tool_calls: [{ type: 'function', function: { name: 'calculator', arguments: { expression: '48/2' } } }], name: '' });
    expect(messages[1]).toEqual({ role: 'tool', content: '24', tool_calls: [], name: 'calculator' });
    expect(messages[4].content).toBe('72 clips altogether.\n#### 1072');
    expect(got.calls).toEqual(['3*4']);
    // The text before a call, without the one newline Qwen's template writes before <tool_call> (TRL's parser drops it).
    expect(got.before).toEqual(['Albert has 50*30 = ', 'x\n', '#### 5', 'a = ']);
    expect(got.calc).toEqual(['24', '0.3', '1001', '-8']);
    expect(got.cost).toEqual([0, -2]);
    expect(got.refused).toEqual(['ValueError', 'ValueError', 'ValueError', 'ZeroDivisionError', 'ValueError']);
  });
});

/**
 * Bugs found by running the exported projects at toy scale (a random 2-layer Qwen3 with Qwen3's chat template, fake
 * GSM8K, TRL 1.13.0 on CPU: scripts/export/smoke.md). Each shows in the generated text; python3 alone cannot run them.
 */
describe('what running the projects found', () => {
  const projects = everyProject();
  const file = (p: (typeof projects)[number]['project'], name: string) => p.files.find((f) => f.path === name)?.text;

  it('prepare_data.py never takes a cached map: datasets fingerprints to_rl/to_sft, not the common.py code they call', () => {
    for (const { project } of projects) {
      const maps = [...file(project, 'prepare_data.py')!.matchAll(/\.map\(([^)]*)\)/g)].map((m) => m[1]);
      expect(maps, project.name).toHaveLength(2);
      for (const args of maps) expect(args, project.name).toContain('load_from_cache_file=False');
    }
  });

  it('eval.py renders a conversation with calls as GRPOTrainer does: TRL’s training template, the model’s own text', () => {
    for (const { project, method } of projects) {
      const evalPy = file(project, 'eval.py')!;
      expect(evalPy, project.name).not.toContain('.split("<tool_call>")[0]'); // kept the newline the template adds again
      if (method !== 'agent') {
        expect(evalPy, project.name).not.toContain('trl');
        continue;
      }
      expect(evalPy).toContain('"content": text_before_calls(text)');
      // Qwen3's own template drops the empty <think> block of turns before a tool result; TRL trains with its variant.
      expect(evalPy).toMatch(/if USE_TOOLS and not is_chat_template_prefix_preserving\(tokenizer\):\n(?:\s+#.*\n)+\s+tokenizer\.chat_template = get_training_chat_template\(tokenizer\)\n/);
      expect(evalPy.indexOf('tokenizer.chat_template =')).toBeLessThan(evalPy.indexOf('finals, calls = answer('));
    }
  });

  it('make_pairs.py stops with a reason when a split has no pairs, instead of DPOTrainer’s bare IndexError', () => {
    const makePairs = file(buildProjectFor('dpo'), 'make_pairs.py')!;
    const check = makePairs.indexOf('raise SystemExit(');
    expect(check).toBeGreaterThan(0);
    expect(makePairs.indexOf('if empty:')).toBeLessThan(check);
    expect(check).toBeLessThan(makePairs.indexOf('result.save_to_disk("data/pairs")'));
  });
});
