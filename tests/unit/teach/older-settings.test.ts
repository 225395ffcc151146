/**
 * Assignments and submissions written before a schema field existed (vision's and self_improve's init_from, added on
 * 2026-12-06): the field declares what such a file ran with (`absentMeans`, lib/train/config.ts), so the file is
 * still accepted, with its own hash, and every run or check made from it uses that value: the lab page, npm run train
 * and grading. Old files are made as the code before the field would have made them: today's settings without the
 * field, hashed with today's hash function.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyAssignment, presetUnderAssignment } from '@/labs/shell/assignment';
import { checkpointFor, trainerSettings, type TrainerName } from '@/lib/spec/registry';
import { startTrainer } from '@/lib/spec/start';
import { assignmentHash, assignmentLink, assignmentSettings, createAssignment, parseAssignmentFile, readAssignmentFragment, type AssignmentFile } from '@/lib/teach/assignment';
import { evaluateCheckpoint } from '@/lib/teach/evaluate';
import { parseGoal } from '@/lib/teach/goal';
import { gradeSubmission } from '@/lib/teach/grade';
import { settingsForStudent } from '@/lib/teach/seeds';
import { buildSubmission, submissionDigest } from '@/lib/teach/submission';
import { selectBackend } from '@/lib/tf/backend';
import type { FieldValue } from '@/lib/train/config';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { decodeSettings } from '@/ui/settings';
import { runScript, scratchDir } from './run-script';

interface Case {
  trainer: TrainerName;
  lab: string;
  /** A small run: seconds to train. */
  overrides: Record<string, FieldValue>;
  goal: string;
  /** What step 1 of a run that trains its own SFT phase / round 0 logs. */
  trainsFirst: (metrics: Record<string, number | null>) => boolean;
}

const CASES: Case[] = [
  {
    trainer: 'vision',
    lab: 'vision',
    overrides: { grid_size: 2, sft_steps: 10, sft_learning_rate: 1e-2, sft_batch_size: 16, max_steps: 12, eval_steps: 12, eval_samples: 24, per_device_train_batch_size: 8, num_generations: 4 },
    goal: 'eval/accuracy >= 0.1',
    trainsFirst: (m) => m.phase === 0 && typeof m['sft/loss'] === 'number',
  },
  {
    trainer: 'self_improve',
    lab: 'self-improve',
    // 1-column demonstrations: a run from the shipped round 0 (init_from 'sft') refuses them, one from base trains.
    overrides: { target_digits: 2, demonstration_digits: 1, demo_steps: 2, steps_per_round: 2, num_prompts: 4, num_generations: 2, per_device_train_batch_size: 4, eval_samples: 10, max_steps: 2, eval_steps: 1 },
    goal: 'eval/accuracy_target >= 0.1',
    trainsFirst: (m) => typeof m.loss === 'number',
  },
];

const without = <T extends Record<string, unknown>>(record: T, key: string) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)) as T;

/** Today's assignment for `c`, as the file npm run assign writes. */
function newAssignment(c: Case, overrides = c.overrides): Promise<AssignmentFile> {
  return createAssignment({ lab: c.lab, trainer: c.trainer, title: 'week 1', preset: 'default', overrides, locked: ['max_steps'], goal: parseGoal(c.goal, c.trainer), evalSeed: 77, evalSamples: 20 });
}

/** The file the code before `field` existed made: the settings without it, hashed as today. */
async function olderFile(made: AssignmentFile, field: string): Promise<string> {
  const { hash: _, grading, ...core } = made;
  const old = { ...core, settings: without(core.settings, field) };
  return JSON.stringify({ ...old, hash: await assignmentHash(old), grading }, null, 2);
}

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));

/** A student's run from the assignment, as the lab starts it: its history, weights and the settings it ran with. */
async function studentRun(a: AssignmentFile, student: string, read = readCheckpoint) {
  const settings = settingsForStudent(a, student);
  const started = await startTrainer(a.trainer, { overrides: settings, readCheckpoint: read });
  const run = new TrainingRun(started.trainer, { maxSteps: Number(settings.max_steps), evalEvery: Number(settings.eval_steps) });
  expect(await run.run()).toBe('done');
  const weights = await started.trainer.save();
  const config = { ...started.trainer.config } as Record<string, FieldValue>;
  started.trainer.dispose();
  return { settings, config, history: run.history as LogLine[], weights };
}

async function submissionText(a: AssignmentFile, student: string, run: Awaited<ReturnType<typeof studentRun>>, config: Record<string, FieldValue>) {
  const s = await buildSubmission({ student, assignment: a, trainer: a.trainer, config, history: run.history, weights: run.weights, environment: { backend: 'wasm', tfjs: tf.version.tfjs, runtime: 'test' }, submitted: new Date('2026-12-01T12:00:00Z') });
  return JSON.stringify(s);
}

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

describe.each(CASES)('an older $trainer assignment, without init_from', (c) => {
  it('is accepted with its own hash, and reads as init_from "base" wherever a run starts', async () => {
    const text = await olderFile(await newAssignment(c), 'init_from');
    const a = await parseAssignmentFile(text);
    // The file as written: nothing added, so its hash and its link still verify.
    expect(a.settings).not.toHaveProperty('init_from');
    expect(a.hash).toBe(JSON.parse(text).hash);
    expect((await readAssignmentFragment(assignmentLink(a).split('#')[1]))!.hash).toBe(a.hash);
    expect(assignmentSettings(a)).toEqual({ ...a.settings, init_from: 'base' });

    // The lab page under the link: the run it starts, and a preset chosen under it.
    const { schema, presets } = trainerSettings(c.trainer);
    const onPage = applyAssignment(a, schema, presets, decodeSettings(schema, presets, ''), '', 'default');
    expect(onPage.settings).toEqual(assignmentSettings(a));
    expect(onPage.problems).toEqual([]);
    expect(checkpointFor(c.trainer, onPage.settings)).toBeNull();
    // The default preset chosen under an assignment that locks the field keeps the assignment's value, not the default's.
    expect(presetUnderAssignment({ ...a, locked: [...a.locked, 'init_from'] }, schema, presets, 'default')).toMatchObject({ settings: { init_from: 'base' } });
  });

  it('starts a fresh model that trains its own first phase, and a submission made from it is graded', async () => {
    const a = await parseAssignmentFile(await olderFile(await newAssignment(c), 'init_from'));
    const read = vi.fn(readCheckpoint);
    const run = await studentRun(a, 'Ada', read);
    expect(read).not.toHaveBeenCalled(); // no shipped checkpoint: the run built its own model
    expect(run.config.init_from).toBe('base');
    expect(run.history.find((l) => l.step === 1 && l.kind === 'train')).toSatisfy((line: LogLine) => c.trainsFirst(line.metrics));

    // Handed in as today's lab writes it (the run's complete settings, init_from 'base' among them) and as the lab
    // before init_from wrote it (the same settings without it): both are this run, and both grade.
    for (const config of [run.config, without(run.config, 'init_from')]) {
      const row = await gradeSubmission({ name: 'ada.json', text: await submissionText(a, 'Ada', run, config) }, a, evaluateCheckpoint, new Date('2026-12-02T00:00:00Z'));
      expect(row, row.detail).toMatchObject({ status: 'ok', detail: '' });
      expect(row.measured).toEqual(expect.any(Number));
      expect(row.flags.filter((f) => !f.startsWith('claimed far'))).toEqual([]);
    }

    // A file claiming init_from 'sft' is a different run from this assignment's: a locked init_from catches it.
    const lockedOld = { ...a, locked: [...a.locked, 'init_from'] };
    const edited = JSON.parse(await submissionText(lockedOld, 'Ada', run, { ...run.config, init_from: 'sft' }));
    edited.digest = await submissionDigest(edited);
    const row = await gradeSubmission({ name: 'ada.json', text: JSON.stringify(edited) }, lockedOld, evaluateCheckpoint, new Date('2026-12-02T00:00:00Z'));
    expect(row.status).toBe('tampered');
    expect(row.detail).toMatch(/locked setting init_from changed \("base" → "sft"\)/);
  }, 120_000);
});

describe('fields without absentMeans are still required', () => {
  it('an assignment lacking another field is refused as before', async () => {
    const vision = await newAssignment(CASES[0]);
    await expect(parseAssignmentFile(await olderFile(vision, 'sft_steps'))).rejects.toThrow('settings: sft_steps is missing');
    const self = await newAssignment(CASES[1]);
    await expect(parseAssignmentFile(await olderFile(self, 'demo_steps'))).rejects.toThrow('settings: demo_steps is missing');
    // The team lab has had init_from from its first version: a file without it was never written, and is refused.
    const team = await createAssignment({ lab: 'team', trainer: 'team', title: 't', preset: 'default', overrides: {}, locked: [], goal: parseGoal('eval/accuracy >= 0.3', 'team'), evalSeed: 1 });
    await expect(parseAssignmentFile(await olderFile(team, 'init_from'))).rejects.toThrow('settings: init_from is missing');
  });

  it('a submission lacking another field is invalid as before', async () => {
    const a = await newAssignment(CASES[0]);
    const config = without(settingsForStudent(a, 'Ada'), 'sft_steps');
    const history: LogLine[] = [{ step: 12, kind: 'eval', metrics: { 'eval/accuracy': 0.2 } }];
    const s = await buildSubmission({ student: 'Ada', assignment: a, trainer: a.trainer, config, history, weights: new Uint8Array(8), environment: { backend: 'wasm', tfjs: '4', runtime: 'test' } });
    const row = await gradeSubmission({ name: 'ada.json', text: JSON.stringify(s) }, a, evaluateCheckpoint);
    expect(row).toMatchObject({ status: 'invalid', detail: 'config: sft_steps is missing' });
  });
});

describe('a file with init_from reads exactly as written', () => {
  it.each(CASES)('$trainer: the default starts from the shipped checkpoint', async (c) => {
    const made = await newAssignment(c, { max_steps: 3 });
    const a = await parseAssignmentFile(JSON.stringify(made));
    expect(a).toEqual(made);
    expect(a.settings.init_from).toBe('sft');
    expect(assignmentSettings(a)).toEqual(a.settings);
    const { schema, presets } = trainerSettings(c.trainer);
    const onPage = applyAssignment(a, schema, presets, decodeSettings(schema, presets, ''), '', 'default');
    expect(onPage.settings).toEqual(a.settings);
    expect(checkpointFor(c.trainer, onPage.settings)).not.toBeNull();
    expect(settingsForStudent(a, 'Ada')).toMatchObject({ init_from: 'sft' });
  });

  it('an explicit init_from "base" is kept', async () => {
    const made = await newAssignment(CASES[0], { ...CASES[0].overrides, init_from: 'base' });
    expect(assignmentSettings(await parseAssignmentFile(JSON.stringify(made)))).toEqual(made.settings);
  });
});

describe('npm run train and npm run grade with an older assignment', () => {
  const at = scratchDir('arl-older-');
  it.each(CASES)('$trainer: the CLI trains from base and grades the submission', async (c) => {
    fs.writeFileSync(at(`${c.trainer}.json`), await olderFile(await newAssignment(c), 'init_from'));
    const train = await runScript('train', [c.trainer, '--backend', 'wasm', '--assignment', at(`${c.trainer}.json`), '--student', 'Ada', '--submit', at(`${c.trainer}-ada.json`)], { timeoutMs: 240_000 });
    expect(train.code, train.stderr).toBe(0);
    const submitted = JSON.parse(fs.readFileSync(at(`${c.trainer}-ada.json`), 'utf8'));
    expect(submitted.config.init_from).toBe('base');
    expect(c.trainsFirst(JSON.parse(train.stdout.split('\n').find((l) => l.includes('"step":1,"kind":"train"'))!))).toBe(true);
    const grade = await runScript('grade', ['--assignment', at(`${c.trainer}.json`), at(`${c.trainer}-ada.json`)], { timeoutMs: 240_000 });
    expect(grade.code, grade.stderr).toBe(0);
    expect(grade.stdout.split('\n')[1]).toMatch(/^[^,]+,Ada,ok,/);
  }, 300_000);
});
