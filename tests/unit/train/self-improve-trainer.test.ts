/**
 * The self-improvement trainer's plumbing with a tiny model and tiny rounds (cpu backend): no tensor leaks across
 * rounds, the same history for the same seed, what each round logs and exposes to the lab, and its refusals. Whether
 * it really improves is a seeded claim (scripts/claims/catalog.ts: self-improve-*), too long for a unit test.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';
import { TrainingRun } from '@/lib/train/run';
import { accuracyMetrics } from '@/lib/train/self-improve-config';
import { createSelfImproveTrainer, roundDifficulty } from '@/lib/train/self-improve-trainer';

// init_from 'base': round 0 trains here (the shipped round 0 is for 3-digit targets).
const tiny = { init_from: 'base', target_digits: 2, demonstration_digits: 1, demo_steps: 2, steps_per_round: 2, num_prompts: 4, num_generations: 2, per_device_train_batch_size: 4, eval_samples: 10 };
const smallModel = (seed = 0) => createTinyLM(configForTask(createAdditionCurriculum({ width: 2 }).at(1), { d_model: 16, n_layers: 1, n_heads: 2 }), seed);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('self_improve trainer', () => {
  it('moves the difficulty on every rounds_per_difficulty rounds, up to the target', () => {
    const c = { demonstration_digits: 2, target_digits: 4, rounds_per_difficulty: 2 };
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => roundDifficulty(r, c))).toEqual([2, 3, 3, 4, 4, 4, 4]);
  });

  it('logs a round per step and leaks no tensors across rounds', async () => {
    const model = smallModel();
    const trainer = createSelfImproveTrainer(model, { ...tiny, filter: 'none' });
    const phases: string[] = [];
    trainer.onPhase!((phase) => phases.push(phase));
    const round0 = await trainer.trainStep();
    // Round 0 fine-tunes and evaluates; it samples nothing.
    expect(phases).toEqual(['round 0: fine-tuning on the demonstrations (2 steps)', 'round 0: evaluating every difficulty']);
    expect(round0).toMatchObject({ round: 0, difficulty: 1 });
    expect(round0).not.toHaveProperty('kept'); // round 0 samples nothing: it is SFT on the demonstrations
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    const round1 = await trainer.trainStep();
    const evaluation = await trainer.evaluate();
    await trainer.trainStep();
    expect(tf.memory().numTensors).toBe(before);
    expect(phases.filter((p) => p.startsWith('round 1:'))).toEqual([
      'round 1: sampling 2 answers to 4 2-digit sums and filtering them (none)',
      'round 1: fine-tuning on kept samples and demonstrations (2 steps)',
      'round 1: evaluating every difficulty',
    ]);
    // Round 1: 4 problems × 2 samples at 2 digits; with no filter every finished sample is kept.
    expect(round1).toMatchObject({ round: 1, difficulty: 2, samples: 8 });
    expect(round1.kept).toBeLessThanOrEqual(8);
    expect(round1.kept_precision).toBeGreaterThanOrEqual(0);
    expect(round1['eval/accuracy_target']).toBe(evaluation['eval/accuracy_target']);
    expect(Object.keys(evaluation).sort()).toEqual(['eval/accuracy_1_digits', 'eval/accuracy_2_digits', 'eval/accuracy_target']);
    // The names the lab's accuracy chart draws for this target (accuracyMetrics) are the ones logged.
    expect(Object.keys(evaluation).filter((k) => k !== 'eval/accuracy_target')).toEqual(accuracyMetrics(2));
    const seen = await trainer.inspect();
    expect(seen).toMatchObject({ round: 2, difficulty: 2, filter: 'none', targetDigits: 2 });
    expect(seen!.samples).toHaveLength(8);
    expect(seen!.accuracy.map((a) => a.round)).toEqual([0, 1, 2]);
    expect(seen!.samples.filter((s) => s.kept).length).toBeGreaterThan(0);
    trainer.dispose();
    model.dispose();
  });

  it('keeps only right answers under the verifier, and repeats itself for a seed', async () => {
    const histories = [];
    for (let i = 0; i < 2; i++) {
      const model = smallModel();
      const trainer = createSelfImproveTrainer(model, { ...tiny, temperature: 1.5 });
      const run = new TrainingRun(trainer, { maxSteps: 2, evalEvery: 1 });
      expect(await run.run()).toBe('done');
      const seen = await trainer.inspect();
      expect(seen!.samples.every((s) => !s.kept || s.correct)).toBe(true);
      histories.push(run.history.map((l) => ({ ...l, metrics: Object.fromEntries(Object.entries(l.metrics).filter(([k]) => !k.startsWith('timing/'))) })));
      trainer.dispose();
      model.dispose();
    }
    expect(histories[0]).toEqual(histories[1]);
    const round1 = histories[0].find((l) => l.kind === 'train' && l.metrics.round === 1)!.metrics;
    expect(round1.kept === 0 || round1.kept_precision === 1).toBe(true);
  });

  it('refuses a target the demonstrations already reach, and a model too short for the target', () => {
    const model = smallModel();
    expect(() => createSelfImproveTrainer(model, { ...tiny, demonstration_digits: 2 })).toThrow(/must be below target_digits/);
    expect(() => createSelfImproveTrainer(model, { ...tiny, target_digits: 3 })).toThrow(/context_length/);
    // The shipped round 0 was trained on 2-column demonstrations for 3-digit sums: other digits must train their own.
    expect(() => createSelfImproveTrainer(model, { ...tiny, init_from: 'sft' })).toThrow(/set init_from 'base' to train round 0 in the run/);
    model.dispose();
  });

  it('with init_from sft (the default) trains nothing in round 0: it evaluates the model it was given, then samples from round 1', async () => {
    const model = createTinyLM(configForTask(createAdditionCurriculum({ width: 3 }).at(1), { d_model: 16, n_layers: 1, n_heads: 2 }), 0);
    const before = await Promise.all(model.trainableVariables().map((w) => w.data()));
    const { init_from, target_digits, demonstration_digits, ...small } = tiny;
    const trainer = createSelfImproveTrainer(model, { ...small, eval_samples: 10 });
    expect([trainer.config.init_from, init_from, target_digits, demonstration_digits]).toEqual(['sft', 'base', 2, 1]);
    const phases: string[] = [];
    trainer.onPhase!((phase) => phases.push(phase));
    const round0 = await trainer.trainStep();
    expect(phases).toEqual(['round 0: loaded, not trained (1000 steps of SFT on the demonstrations, done ahead of time): evaluating every difficulty']);
    expect(round0).toMatchObject({ round: 0, difficulty: 2 });
    expect(round0).not.toHaveProperty('loss'); // no step was taken: no loss to log
    expect(round0).not.toHaveProperty('timing/fine_tuning_ms');
    const after = await Promise.all(model.trainableVariables().map((w) => w.data()));
    expect(after).toEqual(before);
    const round1 = await trainer.trainStep();
    expect(round1).toMatchObject({ round: 1, difficulty: 3, samples: 8 });
    expect(round1.loss).toBeGreaterThan(0);
    trainer.dispose();
    model.dispose();
  });
});
