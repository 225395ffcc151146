/**
 * The LM trainers' plumbing on the CPU backend with a deliberately small model: no tensor leaks, the same
 * history for the same seed, TRL's config rules, and what each step exposes to the labs.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { ConfigError } from '@/lib/train/config';
import { createDpoTrainer } from '@/lib/train/dpo-trainer';
import { createGrpoTrainer, resolveGrpoConfig } from '@/lib/train/grpo-trainer';
import type { StepTrainer } from '@/lib/train/run';
import { createSftTrainer } from '@/lib/train/sft-trainer';

const task = createArithmeticTask({ digits: 1, scratchpad: true });
const smallModel = (seed = 0) => createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), seed);
const quick = { eval_samples: 10 };

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** One burn-in step (Adam creates its slots), then the tensor count must not move. */
async function expectNoLeak(trainer: StepTrainer, steps = 2) {
  await trainer.trainStep();
  await trainer.evaluate();
  const before = tf.memory().numTensors;
  for (let i = 0; i < steps; i++) await trainer.trainStep();
  await trainer.evaluate();
  expect(tf.memory().numTensors).toBe(before);
}

describe('no tensor leaks', () => {
  it('SFT, full fine-tuning', async () => {
    const model = smallModel();
    const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 8, ...quick });
    await expectNoLeak(trainer);
    trainer.dispose();
    model.dispose();
  });

  it('SFT with LoRA adapters', async () => {
    const model = smallModel();
    const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 8, use_peft: true, ...quick });
    expect(trainer.model.trainableParamCount()).toBeLessThan(model.paramCount() / 2);
    await expectNoLeak(trainer);
    trainer.dispose();
    model.dispose();
  });

  it('GRPO with a KL term and several iterations per batch', async () => {
    const model = smallModel();
    const trainer = createGrpoTrainer(model, task, { per_device_train_batch_size: 8, num_generations: 4, max_completion_length: task.maxCompletionLength, beta: 0.04, num_iterations: 2, ...quick });
    await expectNoLeak(trainer);
    trainer.dispose();
    model.dispose();
  });

  it('GRPO, TRL defaults', async () => {
    const model = smallModel();
    const trainer = createGrpoTrainer(model, task, { per_device_train_batch_size: 8, num_generations: 4, max_completion_length: task.maxCompletionLength, ...quick });
    await expectNoLeak(trainer);
    trainer.dispose();
    model.dispose();
  });

  it('DPO', async () => {
    // A model trained a little makes both right and wrong answers, so pairs exist.
    const model = smallModel();
    const sft = createSftTrainer(model, task, { per_device_train_batch_size: 16, learning_rate: 1e-2, ...quick });
    for (let i = 0; i < 30; i++) await sft.trainStep();
    sft.dispose();
    const trainer = await createDpoTrainer(model, task, { per_device_train_batch_size: 4, num_prompts: 32, samples_per_prompt: 4, ...quick });
    expect(trainer.pairs.length).toBeGreaterThanOrEqual(4);
    await expectNoLeak(trainer);
    trainer.dispose();
    model.dispose();
  });
});

describe('GRPO trainer', () => {
  const config = { per_device_train_batch_size: 8, num_generations: 4, max_completion_length: task.maxCompletionLength, ...quick };

  it('gives the same history for the same seed, and another for another seed', async () => {
    const history = async (seed: number) => {
      const model = smallModel();
      const trainer = createGrpoTrainer(model, task, { ...config, seed });
      const out = [await trainer.trainStep(), await trainer.trainStep()].map((m) => Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('timing/'))));
      trainer.dispose();
      model.dispose();
      return out;
    };
    const a = await history(1);
    expect(await history(1)).toEqual(a);
    expect(await history(2)).not.toEqual(a);
  });

  it('logs TRL’s metric names and exposes each group with rewards and advantages', async () => {
    const model = smallModel();
    const trainer = createGrpoTrainer(model, task, config);
    const metrics = await trainer.trainStep();
    for (const name of ['loss', 'reward', 'reward_std', 'entropy', 'clip_ratio/low_mean', 'clip_ratio/high_mean', 'clip_ratio/region_mean', 'completions/mean_length', 'frac_reward_zero_std', 'grad_norm', 'rewards/correctness/mean']) {
      expect(metrics[name], name).toBeTypeOf('number');
    }
    expect(metrics.kl).toBeUndefined(); // beta = 0: no reference model, no KL (as TRL)
    const samples = (await trainer.inspect())!;
    expect(samples.groups).toHaveLength(2);
    for (const group of samples.groups) {
      expect(group.completions).toHaveLength(4);
      const totals = group.completions.map((c) => c.total);
      const mean = totals.reduce((a, b) => a + b, 0) / 4;
      const std = Math.sqrt(totals.reduce((s, t) => s + (t - mean) ** 2, 0) / 3);
      for (const c of group.completions) {
        expect(c.advantage).toBeCloseTo((c.total - mean) / (std + 1e-4), 4); // scale_rewards='group'
        expect(c.tokens).toHaveLength(c.mask.length);
        expect(c.text).toBe(task.tokenizer.decode(c.tokens.map((t) => task.tokenizer.vocab.indexOf(t))));
      }
    }
    trainer.dispose();
    model.dispose();
  });

  it('follows TRL’s config rules', () => {
    expect(resolveGrpoConfig({ epsilon: 0.3 }).epsilon_high).toBe(0.3); // None → epsilon
    expect(resolveGrpoConfig({ epsilon: 0.3, epsilon_high: 0.28 }).epsilon_high).toBe(0.28);
    expect(() => resolveGrpoConfig({ per_device_train_batch_size: 10, num_generations: 4 })).toThrow(/multiple of num_generations/);
    expect(() => resolveGrpoConfig({ loss_type: 'ppo' as never })).toThrow(ConfigError);
    expect(() => resolveGrpoConfig({ beta: -1 })).toThrow(/beta must be in \[0, 10\]/);
    // A model whose context holds the prompt and 6 tokens: a completion of 8 does not fit.
    const model = createTinyLM({ ...configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), context_length: task.promptLength + 6 }, 0);
    expect(() => createGrpoTrainer(model, task, { max_completion_length: 8 })).toThrow(/does not fit/);
    model.dispose();
  });
});

describe('SFT trainer', () => {
  it('logs loss, token accuracy and entropy, and evaluates on held-out problems', async () => {
    const model = smallModel();
    const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 8, ...quick });
    const metrics = await trainer.trainStep();
    expect(metrics.loss).toBeGreaterThan(0);
    expect(metrics.mean_token_accuracy).toBeGreaterThanOrEqual(0);
    expect(metrics.mean_token_accuracy).toBeLessThanOrEqual(1);
    const evaluation = await trainer.evaluate();
    expect(evaluation['eval/accuracy']).toBeGreaterThanOrEqual(0);
    expect(evaluation['eval/accuracy']).toBeLessThanOrEqual(1);
    trainer.dispose();
    model.dispose();
  });
});
