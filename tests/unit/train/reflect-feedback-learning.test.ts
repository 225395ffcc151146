/**
 * The reflect_feedback preset learns to use the verdict: a short seeded run (wasm, as learning.test.ts) from its
 * shipped checkpoint, checked on held-out problems. The claim agent-reflect-feedback-fixes checks seeds 0-2 over the
 * preset's full 60 steps; seed 2 has learned by step 40, which keeps this test short.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { agentPresets } from '@/lib/train/agent-config';
import { createAgentTrainer } from '@/lib/train/agent-trainer';
import { CHECKPOINTS, createAgentLabTask } from '@/lib/train/lab-setup';
import { TrainingRun } from '@/lib/train/run';

beforeAll(async () => {
  expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('reflect_feedback learning (wasm backend, seeded)', () => {
  it('raises the fix rate by more than 0.15 and ends 10 points above first-try accuracy, without missing known facts on purpose', async () => {
    const model = loadTinyLM(new Uint8Array(fs.readFileSync(`public/${CHECKPOINTS.agent_reflect_feedback_sft}`)));
    const trainer = createAgentTrainer(model, createAgentLabTask('product'), { ...agentPresets.reflect_feedback.overrides, seed: 2, max_steps: 40, eval_steps: 40 });
    const run = new TrainingRun(trainer, { maxSteps: 40, evalEvery: 40 });
    expect(await run.run(), run.error).toBe('done');
    trainer.dispose();
    model.dispose();
    const [start, end] = run.history.filter((l) => l.kind === 'eval').map((l) => l.metrics);
    expect(end['eval/fix_rate']).toBeGreaterThanOrEqual(start['eval/fix_rate'] + 0.15);
    expect(end['eval/accuracy']).toBeGreaterThanOrEqual(end['eval/first_try_accuracy'] + 0.1);
    // The first try stays from memory: its accuracy moves by less than the fix rate gains.
    expect(Math.abs(end['eval/first_try_accuracy'] - start['eval/first_try_accuracy'])).toBeLessThan(0.1);
    expect(end['eval/deliberate_miss_rate']).toBeLessThanOrEqual(start['eval/deliberate_miss_rate']);
  }, 120_000); // as the other agent learning tests: a busy machine runs these 40 wasm steps slower
});
