/**
 * The self-improvement lab's TRL project (lib/export/self-improve.ts): every field mapped, only SFTConfig keywords
 * TRL has, the same bytes for the same run, and the loop's pieces in common.py (the schedule of difficulties, the
 * verifier, the majority vote, the mixture) doing what the lab's do on the same inputs. Python parts skip without python3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRL_VERSION } from '@/content/trl-defaults';
import { buildSelfImproveProject, SELF_IMPROVE_RULES, selfImprovePlan } from '@/lib/export/self-improve';
import { LOOP_SCRIPT } from '@/lib/export/python/self-improve';
import type { ExportLab } from '@/lib/export/types';
import { exportLabOf } from '@/lib/spec/export';
import { createRng } from '@/lib/random';
import { ConfigError, resolve, type FieldValue } from '@/lib/train/config';
import { filterSamples, type SampleFilter } from '@/lib/train/self-improve-filter';
import { roundDifficulty } from '@/lib/train/self-improve-trainer';
import { TRAINERS } from '@/lib/spec/registry';
import { hasPython, python, TRL_FIELDS } from './helpers';

const lab: ExportLab = exportLabOf('self_improve');
const presets = Object.keys(lab.presets);
const settingsOf = (preset: string, overrides: Record<string, FieldValue> = {}) =>
  resolve(lab.schema, { ...lab.presets[preset].overrides, ...overrides }) as Record<string, FieldValue>;
const build = (preset: string, overrides: Record<string, FieldValue> = {}) => buildSelfImproveProject(lab, settingsOf(preset, overrides), preset);
const projects = presets.map((preset) => ({ preset, project: build(preset) }));
const file = (p: ReturnType<typeof build>, name: string) => p.files.find((f) => f.path === name)!.text;
const constantOf = (p: ReturnType<typeof build>, name: string) => file(p, LOOP_SCRIPT).match(new RegExp(`^${name} = (.*)$`, 'm'))?.[1];

describe('the self-improvement export', () => {
  it('has a row for every schema field in every preset, a reason for each change, and every rule names a field', () => {
    expect(presets).toEqual(expect.arrayContaining(['default', 'majority', 'sft_only']));
    for (const { preset, project } of projects) {
      expect(project.name).toBe(`trl-self_improve-${preset}`);
      expect(project.plan.rows.map((r) => r.field), preset).toEqual(Object.keys(lab.schema));
      for (const r of project.plan.rows) {
        // Every field has a place, but init_from: the lab's shipped round 0 has none (the project trains round 0 from MODEL).
        if (r.field === 'init_from') expect(r.target).toBe('no counterpart');
        else expect(r.target, r.field).not.toBe('no counterpart');
        if (r.status !== 'copied') expect(r.note.length, r.field).toBeGreaterThan(20);
      }
    }
    expect(Object.keys(SELF_IMPROVE_RULES).sort()).toEqual(Object.keys(lab.schema).sort());
  });

  it('passes SFTConfig only keywords it has at the pinned release, and never the lab’s learning rate', () => {
    const plan = selfImprovePlan(Object.keys(lab.schema), settingsOf('default'));
    expect(plan.rows).toEqual(projects[0].project.plan.rows);
    for (const k of plan.sft) expect(TRL_FIELDS.SFTConfig.fields, `SFTConfig(${k.name})`).toContain(k.name);
    const config = file(projects[0].project, LOOP_SCRIPT).match(/return SFTConfig\(\n([\s\S]*?)\n {4}\)/)![1];
    const keywords = [...config.matchAll(/^ {8}(\w+)=/gm)].map((m) => m[1]);
    expect(keywords.length).toBeGreaterThan(12);
    expect(new Set(keywords).size).toBe(keywords.length);
    for (const k of keywords) expect(TRL_FIELDS.SFTConfig.fields, `SFTConfig(${k}=…)`).toContain(k);
    expect(plan.sft.find((k) => k.name === 'learning_rate')!.value).toBe(2e-5);
    expect(config).not.toContain('3e-3');
  });

  it('each preset’s loop keeps and mixes as the lab’s does: the verifier, a majority vote, demonstrations alone', () => {
    const [byPreset] = [Object.fromEntries(projects.map(({ preset, project }) => [preset, project]))];
    expect(constantOf(byPreset.default, 'FILTER')).toBe('"verifier"');
    expect(constantOf(byPreset.default, 'DEMO_FRACTION')).toBe('0.5');
    expect(constantOf(byPreset.majority, 'FILTER')).toBe('"majority"');
    expect(constantOf(byPreset.sft_only, 'FILTER')).toBe('"verifier"');
    expect(constantOf(byPreset.sft_only, 'DEMO_FRACTION')).toBe('1');
    expect(byPreset.majority.plan.warnings.join(' ')).toMatch(/No verifier/);
    expect(byPreset.sft_only.plan.warnings.join(' ')).toMatch(/demonstrations alone/);
    expect(byPreset.default.plan.warnings).toEqual([]);
    // The loop filters with the constant, and mixes with from_pool (checked against the lab's rounding below).
    const loop = file(byPreset.default, LOOP_SCRIPT);
    expect(loop).toContain('kept = filter_samples(FILTER, texts, finished, answers, NUM_GENERATIONS)');
    expect(loop).toContain('share = from_pool(BATCH_PER_STEP, DEMO_FRACTION, len(pool))');
  });

  it('the same run gives the same bytes; another seed changes only the seed', () => {
    expect(build('default').files).toEqual(projects[0].project.files);
    const other = build('default', { seed: 7 });
    const changed = other.files.filter((f, i) => f.text !== projects[0].project.files[i].text).map((f) => f.path);
    expect(changed.sort()).toEqual(['README.md', LOOP_SCRIPT, 'lab-run.json'].sort());
    expect(constantOf(other, 'SEED')).toBe('7');
    expect(file(other, 'README.md')).toContain('`seed=7`');
  });

  it('writes the files the other exports write, and lab-run.json as they do', () => {
    const names = projects[0].project.files.map((f) => f.path);
    expect(names).toEqual(['README.md', 'requirements.txt', 'common.py', 'prepare_data.py', LOOP_SCRIPT, 'eval.py', 'accelerate/multi_gpu.yaml', 'accelerate/zero2.yaml', 'accelerate/zero3.yaml', 'lab-run.json']);
    const run = JSON.parse(file(projects[1].project, 'lab-run.json')) as Record<string, unknown>;
    expect(run).toEqual({ exported_from: 'Agentic RL Lab', trl: TRL_VERSION, trainer: 'self_improve', preset: projects[1].preset, settings: settingsOf(projects[1].preset) });
  });

  it('the README cites STaR and ReST-EM, maps every field, and has the hardware table', () => {
    const readme = file(projects[0].project, 'README.md');
    expect(readme).toMatch(/Zelikman et al\.\s+2022/);
    expect(readme).toMatch(/Singh\s+et al\. 2023/);
    for (const field of Object.keys(lab.schema)) expect(readme).toContain(`| \`${field}\` |`);
    expect(readme).toMatch(/\| ZeRO stage \| GPUs \| GB per GPU \|/);
    expect(readme).toContain('**changed:**');
  });

  it('refuses a reward function, a target no longer than the demonstrations, and a field it does not know', () => {
    const settings = settingsOf('default');
    expect(() => buildSelfImproveProject(lab, settings, 'default', { source: 'return 1', weight: 1 })).toThrow(ConfigError);
    expect(() => buildSelfImproveProject(lab, { ...settings, demonstration_digits: 3, target_digits: 3 }, 'default')).toThrow(/must be below target_digits/);
    expect(() => buildSelfImproveProject(lab, { ...settings, bogus: 1 }, 'default')).toThrow(ConfigError);
    expect(() => buildSelfImproveProject(lab, settings, 'nope')).toThrow(/unknown preset/);
  });
});

describe.skipIf(!hasPython)('the generated Python', () => {
  let root = '';
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-si-'));
    for (const { project } of projects) {
      for (const f of project.files) {
        const target = path.join(root, project.name, f.path);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, f.text);
      }
    }
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('compiles, every file of every preset', () => {
    const got = python(
      `import json, pathlib, py_compile, sys
files = sorted(pathlib.Path(sys.argv[1]).rglob("*.py"))
errors = []
for f in files:
    try:
        py_compile.compile(str(f), doraise=True, cfile=str(f) + "c")
    except py_compile.PyCompileError as e:
        errors.append(str(e))
print(json.dumps({"files": len(files), "errors": errors}))`,
      [root],
    ) as { files: number; errors: string[] };
    expect(got.errors).toEqual([]);
    expect(got.files).toBe(4 * presets.length);
  });

  it('common.py keeps what the lab’s filterSamples keeps, schedules rounds as roundDifficulty, and mixes as the lab rounds', () => {
    const rng = createRng(11);
    const answers = ['52', '7', '-4', '100'];
    const pick = () => {
      const a = answers[rng.int(answers.length)];
      return [`12,5 #### ${a}`, `#### 0${a.replace('-', '')}`, 'no answer', `#### ${a}`, '#### 99', `x #### ${a} then #### 3`][rng.int(6)];
    };
    const cases = Array.from({ length: 60 }, () => {
      const groupSize = 1 + rng.int(5);
      const n = groupSize * (1 + rng.int(4));
      return { groupSize, texts: Array.from({ length: n }, pick), finished: Array.from({ length: n }, () => rng.next() < 0.8), answers: Array.from({ length: n }, () => answers[rng.int(answers.length)]) };
    });
    const filters: SampleFilter[] = ['verifier', 'majority', 'none'];
    const schedule = Array.from({ length: 40 }, (_, i) => ({ round: i % 10, demonstration_digits: 1 + (i % 3), target_digits: 4 + (i % 2), rounds_per_difficulty: 1 + (i % 4) }));
    const mixes = [1, 2, 3, 5, 7, 32, 33].flatMap((batch) => [0, 0.25, 0.5, 0.7, 0.9, 1].map((fraction) => ({ batch, fraction })));
    const dir = path.join(root, 'trl-self_improve-default');
    const got = python(
      `import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
import common
cases, filters, schedule, mixes = (json.loads(a) for a in sys.argv[1:5])
print(json.dumps({
  "kept": [[common.filter_samples(f, c["texts"], c["finished"], c["answers"], c["groupSize"]) for f in filters] for c in cases],
  "rounds": [common.round_difficulty(s["round"], s["demonstration_digits"], s["target_digits"], s["rounds_per_difficulty"]) for s in schedule],
  "mix": [common.from_pool(m["batch"], m["fraction"], 5) for m in mixes],
  "empty_pool": common.from_pool(32, 0.5, 0),
  "steps": [common.difficulty(s) for s in ["a\\nb\\n#### 3", "#### 3", "a\\n\\nb\\nc\\n#### 1", "one line #### 2"]],
}))`,
      [JSON.stringify(cases), JSON.stringify(filters), JSON.stringify(schedule), JSON.stringify(mixes)],
    ) as { kept: number[][][]; rounds: number[]; mix: number[]; empty_pool: number; steps: number[] };
    cases.forEach((c, i) => filters.forEach((f, j) => expect(got.kept[i][j], `${f} ${JSON.stringify(c)}`).toEqual(filterSamples(f, c))));
    // The cases exercise each filter: some groups vote, some keep nothing, the verifier and the vote disagree.
    expect(got.kept.filter((k) => k[1].length > 0).length).toBeGreaterThan(10);
    expect(got.kept.filter((k) => JSON.stringify(k[0]) !== JSON.stringify(k[1])).length).toBeGreaterThan(10);
    schedule.forEach((s, i) => expect(got.rounds[i], JSON.stringify(s)).toBe(roundDifficulty(s.round, s)));
    // The lab's mixture (lib/train/self-improve-trainer.ts source.batch): Math.round(n × (1 − demo_fraction)) from the pool.
    mixes.forEach((m, i) => expect(got.mix[i], JSON.stringify(m)).toBe(Math.round(m.batch * (1 - m.fraction))));
    expect(got.mix.filter((x, i) => mixes[i].fraction === 1)).toEqual(mixes.filter((m) => m.fraction === 1).map(() => 0)); // sft_only: never a sample
    expect(got.empty_pool).toBe(0);
    expect(got.steps).toEqual([2, 1, 3, 1]);
  });
});
