/**
 * The vision lab's TRL project (lib/export/vision.ts): every field mapped, keywords TRL has, the lab's scenes from its
 * own train split and held-out set, the correctness reward in Python agreeing with the lab's exact match, and the
 * scenes drawn by common.draw_scene where the description puts them. The drawing (Pillow) is checked by the export smoke, whose environment pins Pillow.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportOf } from '@/lib/spec/export';
import { buildProject, exportSettings } from './helpers';
import { CELL_PIXELS, VISION_MODEL } from '@/lib/export/vision';
import { createVisionTask, MIXED_KINDS, sceneKey } from '@/lib/tasks/vision';
import { sftStepsBehind, VISION_GRPO_STEPS, VISION_SFT } from '@/lib/train/vision-config';
import { TRAINERS } from '@/lib/spec/registry';
import { hasPython, TRL_FIELDS } from './helpers';

const presets = Object.keys(TRAINERS.vision.presets);
const projects = presets.map((preset) => ({ preset, project: buildProject('vision', exportSettings('vision', preset), preset) }));
const file = (p: (typeof projects)[number]['project'], name: string) => p.files.find((f) => f.path === name)!.text;
const jsonl = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as { size: number; cells: string; kind: string; question: string; answer: string });

describe('the vision export', () => {
  it('is offered, one row per schema field, only keywords SFTConfig and GRPOConfig have at the pinned release', () => {
    expect(exportOf('vision')).toMatchObject({ trainer: 'vision', spec: { model: 'Qwen/Qwen2.5-VL-3B-Instruct' } });
    expect(presets).toEqual(expect.arrayContaining(['default', 'text_only', 'counting']));
    for (const { preset, project } of projects) {
      expect(project.plan.rows.map((r) => r.field), preset).toEqual(Object.keys(TRAINERS.vision.schema));
      for (const k of project.plan.config) expect(TRL_FIELDS.GRPOConfig.fields, `GRPOConfig(${k.name})`).toContain(k.name);
      for (const k of project.plan.sft) expect(TRL_FIELDS.SFTConfig.fields, `SFTConfig(${k.name})`).toContain(k.name);
      for (const r of project.plan.rows) if (r.status !== 'copied') expect(r.note.length, r.field).toBeGreaterThan(10);
      const lr = project.plan.config.find((k) => k.name === 'learning_rate')!;
      expect(lr.value).toBe(1e-6); // never the lab's 1e-3
      expect(file(project, 'common.py')).toContain(`MODEL = "${VISION_MODEL}"`);
    }
  });

  it('the lab’s export button names the model the project trains, from the spec (the button loads with the page, the exporter does not)', () => {
    const spec = TRAINERS.vision.export;
    expect('model' in spec && spec.model).toBe(VISION_MODEL);
    expect('scope' in spec && spec.scope(exportSettings('vision', 'default')).writes).toContain(`model ${VISION_MODEL.split('/')[1]} on the lab’s own pictures`);
  });

  it('carries the lab’s GRPO settings and splits max_steps into SFT and GRPO steps', () => {
    const settings = exportSettings('vision', 'from_scratch', { num_generations: 4, beta: 0.04, epsilon: 0.3, loss_type: 'grpo', sft_steps: 100, max_steps: 250 });
    const plan = buildProject('vision', settings, 'default').plan;
    const kw = Object.fromEntries(plan.config.map((k) => [k.name, k.value]));
    expect(kw.num_generations).toBe(4);
    expect(kw.beta).toBe(0.04);
    expect(kw.epsilon).toBe(0.3);
    expect(kw.loss_type).toBe('grpo');
    expect(kw.max_steps).toBe(150);
    expect(plan.sft.find((k) => k.name === 'max_steps')!.value).toBe(100);
    // The default starts from the lab's SFT checkpoint: the project runs the checkpoint's SFT steps, then GRPO.
    const fromCheckpoint = buildProject('vision', exportSettings('vision', 'default'), 'default');
    expect(fromCheckpoint.plan.sft.find((k) => k.name === 'max_steps')!.value).toBe(VISION_SFT.steps);
    expect(Object.fromEntries(fromCheckpoint.plan.config.map((k) => [k.name, k.value])).max_steps).toBe(VISION_GRPO_STEPS);
    expect(file(fromCheckpoint, 'train_grpo.py')).toContain('START_FROM = "outputs/sft"');
    expect(fromCheckpoint.plan.rows.find((r) => r.field === 'init_from')!.note).toContain(`train_sft.py runs those ${VISION_SFT.steps} steps on the pretrained VLM`);
    const none = buildProject('vision', exportSettings('vision', 'from_scratch', { sft_steps: 0 }), 'default');
    expect(file(none, 'train_grpo.py')).toContain('START_FROM = MODEL');
    expect(file(none, 'README.md')).toContain('SFT: skipped');
  });

  it('writes the lab’s scenes: train problems from its train split, its own held-out set, answers in words', () => {
    const settings = exportSettings('vision', 'default');
    const project = buildProject('vision', settings, 'default');
    const task = createVisionTask({ size: settings.grid_size as number, kinds: MIXED_KINDS, occupancy: settings.occupancy as number });
    const test = jsonl(file(project, 'scenes/test.jsonl'));
    const lab = task.testSet(settings.eval_samples as number);
    expect(test).toHaveLength(lab.length);
    test.forEach((row, i) => {
      expect(`${row.size}:${row.cells}`).toBe(sceneKey(lab[i].scene));
      expect(row.question).toBe(lab[i].question);
    });
    const train = jsonl(file(project, 'scenes/train.jsonl'));
    // As many problems as the longer phase reads (SFT here), capped at 20,000: the file cycles past that.
    const sftExamples = sftStepsBehind(settings) * (settings.sft_batch_size as number); // the checkpoint's 800 SFT steps
    expect(sftExamples).toBeGreaterThan(1000);
    expect(train.length).toBe(Math.min(20_000, sftExamples));
    const keys = new Set(test.map((r) => r.cells));
    for (const row of train.slice(0, 500)) {
      const scene = { size: row.size, cells: row.cells.match(/../g)!.map((c) => (c === '..' ? null : { colour: ({ r: 'red', g: 'green', b: 'blue', y: 'yellow' } as const)[c[0] as 'r'], shape: ({ s: 'square', c: 'circle', t: 'triangle' } as const)[c[1] as 's'] })) };
      expect(task.isHeldOut({ scene } as never), row.cells).toBe(false);
      expect(keys.has(row.cells)).toBe(false);
      expect(row.answer).toMatch(row.kind === 'colour_at' ? /^(red|green|blue|yellow)$/ : /^\d+$/);
    }
    // The same settings give the same bytes; another seed other train scenes.
    expect(buildProject('vision', settings, 'default').files).toEqual(project.files);
    expect(file(buildProject('vision', exportSettings('vision', 'default', { seed: 7 }), 'default'), 'scenes/train.jsonl')).not.toBe(file(project, 'scenes/train.jsonl'));
  });

  it('text_only leaves the picture out and says so; requirements pin Pillow and ask for torchvision', () => {
    const text = projects.find((p) => p.preset === 'text_only')!.project;
    expect(file(text, 'common.py')).toMatch(/^USE_IMAGE = False$/m);
    expect(text.plan.warnings.join(' ')).toMatch(/text_only floor/);
    const requirements = file(text, 'requirements.txt');
    expect(requirements).toMatch(/^Pillow==\d+\.\d+\.\d+ /m);
    expect(requirements).toMatch(/^torchvision\s/m);
    expect(requirements).toMatch(/^trl==/m);
  });
});

let root = '';
afterAll(() => root && fs.rmSync(root, { recursive: true, force: true }));

describe.skipIf(!hasPython)('the vision project’s Python', () => {
  it('compiles; the reward is the lab’s exact match up to case, spaces and a final full stop', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-vision-'));
    const { project } = projects[0];
    for (const f of project.files) {
      fs.mkdirSync(path.dirname(path.join(root, f.path)), { recursive: true });
      fs.writeFileSync(path.join(root, f.path), f.text);
    }
    const script = `
import json, py_compile, sys, pathlib
for p in pathlib.Path(".").rglob("*.py"): py_compile.compile(str(p), doraise=True, cfile=str(p) + "c")
sys.path.insert(0, ".")
import common
completions = ["3", " 3.", "Red", "red.", "3 red", "three", "", "03"]
answers = ["3", "3", "red", "red", "3", "3", "3", "3"]
conv = [[{"role": "assistant", "content": c}] for c in completions]
print(json.dumps([common.correctness_reward(completions, answers), common.correctness_reward(conv, answers)]))
`;
    const out = spawnSync('python3', ['-c', script], { cwd: root, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const [plain, conversational] = JSON.parse(out.stdout) as number[][];
    expect(plain).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
    expect(conversational).toEqual(plain);
  });

});
