/**
 * The exported projects, run: every step of the default sft, lora_r4, grpo, dpo and agent projects at toy scale on a
 * CPU (a random 2-layer Qwen3 with Qwen3's chat template, fake GSM8K; scripts/export/smoke.md), and the agent's reflect,
 * memory and reflect_feedback presets' GRPO through TRL's environment_factory, in an environment with
 * exactly the pinned versions (scripts/export/smoke-env.ts). .ci/run runs it after npm test on every submission:
 * EXPORT_SMOKE_PYTHON=.venv-export/bin/python npm run test:export-smoke. The vision project runs on a random Qwen2.5-VL
 * (scripts/export/smoke/make_tiny_vl.py) with its first 32 train and 8 held-out scenes. The self-improvement project runs
 * two rounds on fake problems of one and two steps, its samples scripted (run.py FAKE_CORRECTNESS) so that each filter
 * has something to keep. Not part of npm test, which never needs torch.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExport, exportSettings } from '@/lib/spec/export';
import type { TrainerName } from '@/lib/spec/registry';
import { CELL_PIXELS } from '@/lib/export/vision';
import { resolve } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';

const PYTHON = process.env.EXPORT_SMOKE_PYTHON ?? '';
const SMOKE = path.resolve('scripts/export/smoke');
const MINUTES = 60_000;

let root = '';
/** What every step runs with, on top of process.env. */
let env: Record<string, string> = {};

/** Runs PYTHON in dir; fails the test with the output's tail when it exits non-zero. */
function run(dir: string, args: string[], extraEnv: Record<string, string> = {}): string {
  const result = spawnSync(PYTHON, args, { cwd: dir, env: { ...process.env, ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0) throw new Error(`${args.join(' ')} in ${dir} exited ${result.status}:\n${output.slice(-3000)}`);
  return output;
}

/** Writes the project exactly as `npm run export` and the lab's button build it: through the trainer's spec. */
async function project(method: TrainerName, preset = 'default'): Promise<string> {
  const dir = path.join(root, `${method}-${preset}`);
  for (const file of (await buildExport(method, exportSettings(method, preset), preset)).files) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.text);
  }
  return dir;
}

const step = (dir: string, script: string, ...sets: string[]) => expect(run(dir, [path.join(SMOKE, 'run.py'), dir, script, ...sets])).toContain('[smoke] OK');
const evaluate = (dir: string, model: string) => {
  run(dir, ['eval.py', '--model', model, '--limit', '4', '--batch_size', '4', '--max_new_tokens', '16']);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, `eval-${path.basename(model)}.json`), 'utf8')) as { problems: number; accuracy: number };
  expect(summary.problems).toBe(4);
  expect(summary.accuracy).toBeGreaterThanOrEqual(0);
};
const saved = (dir: string, output: string) => expect(fs.existsSync(path.join(dir, output, 'model.safetensors')), `${dir}/${output}`).toBe(true);

if (!PYTHON) throw new Error('Set EXPORT_SMOKE_PYTHON to a Python that has torch and TRL installed (scripts/export/smoke.md).');

describe('the exported projects, run at toy scale', () => {
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-smoke-'));
    const model = path.join(root, 'tiny-qwen');
    const data = path.join(root, 'fake-gsm8k');
    env = {
      TINY_MODEL: model,
      FAKE_GSM8K: data,
      HF_HUB_OFFLINE: '1',
      HF_DATASETS_OFFLINE: '1',
      HF_DATASETS_CACHE: path.join(root, 'datasets-cache'),
      TQDM_DISABLE: '1',
    };
    run(root, [path.join(SMOKE, 'make_tiny.py'), model, data]);
  }, 5 * MINUTES);
  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('sft: data, SFT, eval; prepare_data.py again after an edit to common.py gives the new rows', async () => {
    const dir = await project('sft');
    step(dir, 'prepare_data.py');
    step(dir, 'train_sft.py');
    saved(dir, 'outputs/sft');
    evaluate(dir, 'outputs/sft');
    // datasets' map cache would hand back the old rows: it fingerprints to_sft, not common.solution_text.
    const common = path.join(dir, 'common.py');
    fs.writeFileSync(common, fs.readFileSync(common, 'utf8').replace('return f"{steps}\\n#### ', 'return f"{steps}\\nEDITED #### '));
    step(dir, 'prepare_data.py');
    const first = run(dir, ['-c', 'from datasets import load_from_disk; print(load_from_disk("data/sft")["train"][0]["completion"][0]["content"])']);
    expect(first).toContain('EDITED #### ');
  }, 10 * MINUTES);

  it('sft with LoRA: adapters trained, merged into outputs/sft, eval', async () => {
    const dir = await project('sft', 'lora_r4');
    step(dir, 'prepare_data.py');
    step(dir, 'train_sft.py');
    expect(fs.existsSync(path.join(dir, 'outputs/sft-adapter/adapter_model.safetensors'))).toBe(true);
    saved(dir, 'outputs/sft');
    evaluate(dir, 'outputs/sft');
  }, 10 * MINUTES);

  it('grpo: data, SFT, GRPO with its in-training evaluation, eval', async () => {
    const dir = await project('grpo');
    step(dir, 'prepare_data.py');
    step(dir, 'train_sft.py');
    step(dir, 'train_grpo.py', 'log_completions=False');
    saved(dir, 'outputs/grpo');
    evaluate(dir, 'outputs/grpo');
  }, 10 * MINUTES);

  it('dpo: data, SFT, pairs (none from a random model: a clear stop; then scored right/wrong), DPO, eval', async () => {
    const dir = await project('dpo');
    step(dir, 'prepare_data.py');
    step(dir, 'train_sft.py');
    expect(() => run(dir, [path.join(SMOKE, 'run.py'), dir, 'make_pairs.py'])).toThrow(/no preference pairs in train, test/);
    expect(run(dir, [path.join(SMOKE, 'run.py'), dir, 'make_pairs.py'], { FAKE_CORRECTNESS: '1' })).toMatch(/\{'train': [1-9]\d*, 'test': [1-9]\d*\} pairs/);
    step(dir, 'train_dpo.py');
    saved(dir, 'outputs/dpo');
    evaluate(dir, 'outputs/dpo');
  }, 10 * MINUTES);

  it('agent: tool-use data, SFT on assistant turns, GRPO with the calculator, eval; eval.py’s turns read as in training', async () => {
    const dir = await project('agent');
    step(dir, 'prepare_data.py');
    step(dir, 'train_sft.py', 'max_length=1024'); // the tiny tokenizer writes the tool schema in ~700 tokens
    saved(dir, 'outputs/sft');
    step(dir, 'train_agent.py', 'log_completions=False', 'max_completion_length=96');
    saved(dir, 'outputs/agent');
    evaluate(dir, 'outputs/agent');
    expect(JSON.parse(run(dir, [path.join(SMOKE, 'eval_turns.py'), dir, env.TINY_MODEL]).trim().split('\n').at(-1)!)).toMatchObject({ ok: true, turns: 2 });
  }, 10 * MINUTES);

  it('agent reflect, memory and reflect_feedback: GRPO with the lab’s episode rules through environment_factory (common.AgentEnvironment)', async () => {
    // The default agent case above runs SFT; here the tiny model itself stands in for its output, to keep the case short.
    const reflect = await project('agent', 'reflect');
    step(reflect, 'prepare_data.py');
    fs.cpSync(env.TINY_MODEL, path.join(reflect, 'outputs/sft'), { recursive: true });
    const memory = await project('agent', 'memory');
    const feedback = await project('agent', 'reflect_feedback');
    // The same data and start: prepare_data.py and the SFT stage do not depend on the episode rules.
    for (const other of [memory, feedback]) for (const shared of ['data', 'outputs/sft']) fs.cpSync(path.join(reflect, shared), path.join(other, shared), { recursive: true });
    for (const dir of [reflect, memory, feedback]) {
      const output = run(dir, [path.join(SMOKE, 'run.py'), dir, 'train_agent.py', 'log_completions=False', 'max_completion_length=96']);
      expect(output).toContain('[smoke] OK');
      // TRL took the environment path: it probed AgentEnvironment (its reset, its methods as tools) and warned.
      expect(output, dir).toContain("You are using 'environment_factory', which is an experimental feature");
      saved(dir, 'outputs/agent');
    }
  }, 10 * MINUTES);

  it('self-improvement: data by steps, round 0 on the demonstrations, a round of sampling, filtering and mixing, eval; the verifier and the vote keep what the lab’s keep', async () => {
    // The fake problems all take two steps; the curriculum needs two lengths, so every other one loses its first step.
    const data = path.join(root, 'fake-gsm8k-steps');
    fs.mkdirSync(data, { recursive: true });
    for (const split of ['train', 'test']) {
      const rows = fs.readFileSync(path.join(env.FAKE_GSM8K, `${split}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { question: string; answer: string });
      const stepped = rows.map((r, i) => (i % 2 ? { ...r, answer: r.answer.split('\n').slice(1).join('\n') } : r));
      fs.writeFileSync(path.join(data, `${split}.jsonl`), stepped.map((r) => JSON.stringify(r)).join('\n') + '\n');
    }
    const lab = TRAINERS.self_improve;
    const toy = { demonstration_digits: 1, target_digits: 2, max_steps: 2, num_prompts: 4, num_generations: 3, per_device_train_batch_size: 4, eval_samples: 10 };
    const fake = { FAKE_GSM8K: data, FAKE_CORRECTNESS: '1' };
    const run1 = async (preset: string, prepared?: string) => {
      const settings = resolve(lab.schema, { ...lab.presets[preset as 'default'].overrides, ...toy }) as Record<string, string | number | boolean>;
      const dir = path.join(root, `self_improve-${preset}`);
      // Built as `npm run export -- self_improve` builds it: through the trainer's spec.
      for (const file of (await buildExport('self_improve', settings, preset)).files) {
        fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
        fs.writeFileSync(path.join(dir, file.path), file.text);
      }
      if (prepared) fs.cpSync(path.join(prepared, 'data'), path.join(dir, 'data'), { recursive: true }); // the same data: one Python start less
      else expect(run(dir, [path.join(SMOKE, 'run.py'), dir, 'prepare_data.py'], fake)).toMatch(/train 48 problems; by steps: \{1: 24, 2: 24\}/);
      expect(run(dir, [path.join(SMOKE, 'run.py'), dir, 'self_improve.py'], fake)).toContain('[smoke] OK');
      saved(dir, 'outputs/self_improve');
      const rounds = fs.readFileSync(path.join(dir, 'outputs/self_improve/rounds.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, number | null>);
      expect(rounds.map((r) => [r.round, r.difficulty])).toEqual([[0, 1], [1, 2]]);
      for (const r of rounds) expect(Object.keys(r)).toEqual(expect.arrayContaining(['loss', 'eval/accuracy_1_steps', 'eval/accuracy_2_steps', 'eval/accuracy_target']));
      expect(rounds[1].samples).toBe(12);
      return { dir, round: rounds[1] };
    };
    // Scripted samples (run.py): even problems one right and two same wrong answers, odd problems the reverse.
    const verifier = await run1('default');
    expect(verifier.round).toMatchObject({ kept: 6, kept_precision: 1, kept_wrong: 0, pool_size: 4, pool_added: 4, from_pool_per_batch: 2 });
    // sft_only differs from default only in DEMO_FRACTION, which the unit tests check (common.from_pool).
    const majority = await run1('majority', verifier.dir);
    expect(majority.round).toMatchObject({ kept: 8, kept_precision: 0.5, kept_wrong: 4, pool_size: 4, from_pool_per_batch: 2 });
    run(verifier.dir, ['eval.py', '--model', 'outputs/self_improve', '--limit', '4', '--batch_size', '4', '--max_new_tokens', '16'], { FAKE_GSM8K: data });
    const summary = JSON.parse(fs.readFileSync(path.join(verifier.dir, 'eval-self_improve.json'), 'utf8')) as Record<string, number>;
    expect(summary.problems).toBe(8); // 4 per difficulty
    expect([0, 0.25, 0.5, 0.75, 1]).toContain(summary['eval/accuracy_target']);
  }, 10 * MINUTES);

  it('vision: common.draw_scene draws each shape in its colour in its cell, at CELL_PIXELS a cell', async () => {
    const dir = await project('vision');
    const script = `
import json, sys
sys.path.insert(0, ".")
from common import CELL_PIXELS, draw_scene
img = draw_scene(2, "rsgc..yt")
c = CELL_PIXELS // 2
px = lambda col, row, dx=0, dy=0: list(img.getpixel((col * CELL_PIXELS + c + dx, row * CELL_PIXELS + c + dy)))
corner = CELL_PIXELS // 8 + 1
print(json.dumps({"size": img.size, "red": px(0, 0), "green": px(1, 0), "empty": px(0, 1), "yellow": px(1, 1),
  "circle_corner": list(img.getpixel((CELL_PIXELS + corner, corner))), "square_corner": list(img.getpixel((corner, corner))),
  "triangle_top_right": list(img.getpixel((2 * CELL_PIXELS - corner - 1, CELL_PIXELS + corner))), "triangle_bottom_left": list(img.getpixel((CELL_PIXELS + corner, 2 * CELL_PIXELS - corner - 1)))}))
`;
    const out = run(dir, ['-c', script]);
    const d = JSON.parse(out.split('\n').find((line) => line.startsWith('{'))!) as Record<string, number[]>;
    expect(d.size).toEqual([2 * CELL_PIXELS, 2 * CELL_PIXELS]);
    expect(d.red).toEqual([255, 0, 0]);
    expect(d.green).toEqual([0, 255, 0]);
    expect(d.empty).toEqual([0, 0, 0]);
    expect(d.yellow).toEqual([255, 255, 0]);
    expect(d.square_corner).toEqual([255, 0, 0]); // a square fills its box
    expect(d.circle_corner).toEqual([0, 0, 0]); // a disc leaves the corners
    expect(d.triangle_bottom_left).toEqual([255, 255, 0]); // the lab's triangle: lower left
    expect(d.triangle_top_right).toEqual([0, 0, 0]);
  });

  it('vision: the lab’s scenes drawn, SFT on described pictures, GRPO with the correctness reward on a Qwen2.5-VL, eval', async () => {
    const dir = await project('vision');
    // The first scenes only: drawing all 9,600 takes a minute and says nothing more.
    for (const [file, n] of [['scenes/train.jsonl', 32], ['scenes/test.jsonl', 8]] as const) {
      const target = path.join(dir, file);
      fs.writeFileSync(target, fs.readFileSync(target, 'utf8').split('\n').slice(0, n).join('\n') + '\n');
    }
    const model = path.join(root, 'tiny-qwen-vl');
    run(root, [path.join(SMOKE, 'make_tiny_vl.py'), model]);
    const vl = { TINY_VL_MODEL: model };
    const vstep = (script: string, ...sets: string[]) => expect(run(dir, [path.join(SMOKE, 'run.py'), dir, script, ...sets], vl)).toContain('[smoke] OK');
    vstep('prepare_data.py');
    expect(run(dir, ['-c', 'from datasets import load_from_disk; d = load_from_disk("data/grpo")["train"]; print(d.num_rows, d[0]["image"].size)'])).toMatch(/^32 \(224, 224\)/m);
    vstep('train_sft.py');
    saved(dir, 'outputs/sft');
    vstep('train_grpo.py');
    saved(dir, 'outputs/grpo');
    vstep('eval.py', '--', '--model', 'outputs/grpo', '--limit', '4', '--batch_size', '4', '--max_new_tokens', '8');
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'eval-grpo.json'), 'utf8')) as { problems: number; accuracy: number };
    expect(summary.problems).toBe(4);
    expect([0, 0.25, 0.5, 0.75, 1]).toContain(summary.accuracy); // right answers out of the 4 problems
  }, 10 * MINUTES);
});
