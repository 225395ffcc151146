/**
 * The evaluation the grader runs (lib/teach/evaluate.ts), with tfjs on wasm: on the lab's test set it reproduces
 * exactly what each trainer's own evaluate() logged, and a real run graded end to end is ok, while the same file
 * with another run's weights (hashes recomputed) is caught.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssignment, sharedPart } from '@/lib/teach/assignment';
import { sha256Hex, toBase64 } from '@/lib/teach/canonical';
import { evaluateCheckpoint } from '@/lib/teach/evaluate';
import { gradeSubmission } from '@/lib/teach/grade';
import { buildSubmission } from '@/lib/teach/submission';
import { selectBackend } from '@/lib/tf/backend';
import { presetSettings, type FieldValue } from '@/lib/train/config';
import { trainerSettings, type TrainerName } from '@/lib/spec/registry';
import { TrainingRun } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { BASE_WEIGHTS, GRPO_INPUT, rehash } from './fixtures';

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const settingsOf = (trainer: TrainerName, preset: string, overrides: Record<string, FieldValue>) => {
  const { schema, presets } = trainerSettings(trainer);
  return { ...presetSettings(schema, presets[preset]), ...overrides };
};

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluateCheckpoint', () => {
  it.each([
    ['grpo', 'default', { eval_samples: 20 }, 1],
    ['agent', 'default', { eval_samples: 20 }, 1],
    ['agent', 'retry', { eval_samples: 20 }, 1],
    ['sft', 'lora_r4', { eval_samples: 20 }, 2], // the LoRA lab: adapters, and accuracy on the old task
    ['ppo', 'default', {}, 3],
  ] as [TrainerName, string, Record<string, FieldValue>, number][])('%s (%s): on the lab’s test set it gives what the trainer’s own evaluate() gives', async (trainer, preset, overrides, steps) => {
    const config = settingsOf(trainer, preset, overrides);
    const { trainer: t } = await startTrainer(trainer, { overrides: config, readCheckpoint });
    for (let i = 0; i < steps; i++) await t.trainStep();
    const [own, weights] = [await t.evaluate(), await t.save()];
    t.dispose();
    const before = tf.memory().numTensors;
    const again = await evaluateCheckpoint(trainer, weights, config, { kind: 'public' });
    expect(Object.keys(again).length).toBeGreaterThan(1);
    for (const [metric, value] of Object.entries(again)) expect(value, metric).toBe(own[metric]);
    // The instructor's set: the same for the same seed, and nothing left allocated.
    const seeded = { kind: 'seeded', seed: 7, samples: 20 } as const;
    expect(await evaluateCheckpoint(trainer, weights, config, seeded)).toEqual(await evaluateCheckpoint(trainer, weights, config, seeded));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('throws, leaving nothing allocated, when the weights do not fit the task', async () => {
    const before = tf.memory().numTensors;
    await expect(evaluateCheckpoint('agent', BASE_WEIGHTS, settingsOf('agent', 'default', {}), { kind: 'public' })).rejects.toThrow();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('grading a real run', () => {
  it('is ok with its own weights, and tampered with another run’s, every hash recomputed', async () => {
    const assignment = await createAssignment({ ...GRPO_INPUT, overrides: { ...GRPO_INPUT.overrides, max_steps: 2, eval_steps: 2, eval_samples: 20 }, evalSamples: 30 });
    const { trainer } = await startTrainer('grpo', { overrides: assignment.settings, readCheckpoint });
    const run = new TrainingRun(trainer, { maxSteps: 2, evalEvery: 2 });
    expect(await run.run()).toBe('done');
    const submission = await buildSubmission({
      student: 'Ada', assignment: sharedPart(assignment), trainer: 'grpo', config: assignment.settings, history: run.history,
      weights: await trainer.save(), environment: { backend: 'wasm', tfjs: tf.version.tfjs, runtime: 'vitest' },
    });
    trainer.dispose();
    const grade = (json: unknown) => gradeSubmission({ name: 'sub.json', text: JSON.stringify(json) }, assignment, evaluateCheckpoint);

    const ok = await grade(submission);
    expect(ok).toMatchObject({ status: 'ok', detail: '', claimed: run.history.at(-1)!.metrics['eval/accuracy'] });
    expect(ok.measured).toBeGreaterThan(0.1);
    expect(ok.goalMet).toBe(ok.measured! >= 0.45);

    const swapped = JSON.parse(JSON.stringify(submission));
    swapped.weights = { format: 'arlw', sha256: await sha256Hex(BASE_WEIGHTS), data: toBase64(BASE_WEIGHTS) };
    const caught = await grade(await rehash(swapped));
    expect(caught.status).toBe('tampered');
    expect(caught.detail).toMatch(/^the weights do not reproduce the history \(eval\/accuracy [\d.]+ at step 2; the weights score 0 on the lab’s test set\)$/);
    expect(caught.goalMet).toBe(false);
  });
});
