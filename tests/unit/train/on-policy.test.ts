/**
 * The on-policy kit (lib/train/on-policy.ts) on its own: the update's settings read field by field from each kind of
 * trainer config, reward scoring's logged names and means on a hand-made batch, group sampling's row layout, and one
 * SFT step checked against a hand-computed loss and against the SFT trainer.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '@/lib/models/generate';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import type { RewardContext } from '@/lib/tasks/rewards';
import { ConfigError } from '@/lib/train/config';
import { resolveGrpoConfig } from '@/lib/train/grpo-trainer';
import type { GrpoUpdateConfig } from '@/lib/train/grpo-update';
import { readScalars } from '@/lib/train/lm-batch';
import {
  completionMetrics,
  mean,
  repeatEach,
  resolveOnPolicyConfig,
  rewardMeans,
  sampleGroups,
  scoreRewards,
  sftStep,
  updateConfigOf,
  weightedReward,
  type Demonstrations,
  type NamedReward,
} from '@/lib/train/on-policy';
import { adam } from '@/lib/train/optim';
import { inTensorScope } from '@/lib/train/scope';
import { sftTrainerOn } from '@/lib/train/sft-trainer';
import { resolve } from '@/lib/train/config';
import { sftSchema } from '@/lib/train/sft-config';
import { resolveTeamConfig } from '@/lib/train/team-trainer';
import { teamSchema } from '@/lib/train/team-config';
import { resolveVisionConfig } from '@/lib/train/vision-trainer';
import { visionSchema } from '@/lib/train/vision-config';

const task = createArithmeticTask({ digits: 1, scratchpad: true });
const smallModel = (seed = 0) => createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), seed);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const UPDATE_FIELDS: (keyof GrpoUpdateConfig)[] = [
  'learning_rate', 'beta', 'num_generations', 'scale_rewards', 'num_iterations', 'steps_per_generation', 'temperature',
  'loss_type', 'importance_sampling_level', 'epsilon', 'epsilon_high', 'max_completion_length', 'max_grad_norm',
  'per_device_train_batch_size',
];

describe('updateConfigOf', () => {
  it('reads every one of the 14 fields from a GRPO config that sets them all, and nothing else', () => {
    // Every value differs from its default and from the others, so a field read from the wrong place fails.
    const config = resolveGrpoConfig({
      learning_rate: 1.5e-4, beta: 0.07, num_generations: 4, scale_rewards: 'batch', num_iterations: 3,
      steps_per_generation: 2, temperature: 0.85, loss_type: 'dr_grpo', importance_sampling_level: 'sequence',
      epsilon: 0.15, epsilon_high: 0.31, max_completion_length: 11, max_grad_norm: 0.6, per_device_train_batch_size: 12,
    });
    const update = updateConfigOf(config);
    expect(Object.keys(update).sort()).toEqual([...UPDATE_FIELDS].sort());
    for (const field of UPDATE_FIELDS) expect(update[field], field).toBe(config[field]);
    expect(update).toMatchObject({ num_iterations: 3, steps_per_generation: 2, importance_sampling_level: 'sequence', epsilon_high: 0.31, scale_rewards: 'batch' });
  });

  it('makes a vision config on-policy, token-level and symmetric, with GRPO’s rate and the task’s length', () => {
    const config = resolveVisionConfig({ learning_rate: 2e-3, sft_learning_rate: 5e-3, beta: 0.02, num_generations: 4, per_device_train_batch_size: 16, temperature: 0.9, epsilon: 0.25, loss_type: 'grpo', scale_rewards: 'none', max_grad_norm: 0.5 });
    expect(updateConfigOf({ ...config, max_completion_length: 3 })).toEqual({
      learning_rate: 2e-3, // GRPO's, not the SFT phase's
      beta: 0.02,
      num_generations: 4,
      scale_rewards: 'none',
      num_iterations: 1,
      steps_per_generation: 1,
      temperature: 0.9,
      loss_type: 'grpo',
      importance_sampling_level: 'token',
      epsilon: 0.25,
      epsilon_high: 0.25,
      max_completion_length: 3,
      max_grad_norm: 0.5,
      per_device_train_batch_size: 16,
    });
  });

  it('gives each team role its own rate and length and shares the rest', () => {
    const config = resolveTeamConfig({ learning_rate: 2e-3, receiver_learning_rate_multiplier: 10, epsilon: 0.3 });
    const sender = updateConfigOf({ ...config, max_completion_length: config.max_message_length });
    const receiver = updateConfigOf({ ...config, learning_rate: config.learning_rate * config.receiver_learning_rate_multiplier, max_completion_length: 1 });
    expect([sender.learning_rate, sender.max_completion_length]).toEqual([2e-3, config.max_message_length]);
    expect([receiver.learning_rate, receiver.max_completion_length]).toEqual([2e-3 * 10, 1]);
    const { learning_rate: _s, max_completion_length: _sl, ...senderRest } = sender;
    const { learning_rate: _r, max_completion_length: _rl, ...receiverRest } = receiver;
    expect(senderRest).toEqual(receiverRest);
    expect(sender).toMatchObject({ epsilon: 0.3, epsilon_high: 0.3, num_iterations: 1, steps_per_generation: 1 });
  });
});

describe('resolveOnPolicyConfig', () => {
  it('lets epsilon_high follow epsilon where the schema has it, and keeps an explicit one', () => {
    expect(resolveGrpoConfig({ epsilon: 0.1 }).epsilon_high).toBe(0.1);
    expect(resolveGrpoConfig({ epsilon: 0.1, epsilon_high: 0.28 }).epsilon_high).toBe(0.28);
  });

  it('takes epsilon for a schema without epsilon_high', () => {
    expect(resolveOnPolicyConfig(visionSchema, { epsilon: 0.1 }).epsilon).toBe(0.1);
    expect(Object.hasOwn(resolveOnPolicyConfig(teamSchema, { epsilon: 0.1 }), 'epsilon_high')).toBe(false);
  });

  it('refuses a generation batch of broken groups (steps_per_generation 1 where the schema has none)', () => {
    expect(() => resolveOnPolicyConfig(visionSchema, { per_device_train_batch_size: 10, num_generations: 4 })).toThrow(/multiple of num_generations/);
    expect(() => resolveOnPolicyConfig(teamSchema, { per_device_train_batch_size: 12, num_generations: 4 })).not.toThrow();
    expect(() => resolveGrpoConfig({ per_device_train_batch_size: 6, steps_per_generation: 2, num_generations: 4 })).not.toThrow(); // 12 rows: whole groups
    expect(() => resolveOnPolicyConfig(visionSchema, { learning_rate: -1 })).toThrow(ConfigError);
  });
});

describe('reward scoring', () => {
  // Two groups of two completions; three functions, the last reading different texts.
  const texts = ['#### 5', '#### 4', 'oops', '#### 12'];
  const context: RewardContext = { answers: ['5', '5', '12', '12'] };
  const calls: string[] = [];
  const rewards: (NamedReward & { whole?: boolean })[] = [
    { name: 'correctness', weight: 1, fn: (c, ctx) => (calls.push('correctness'), c.map((t, i) => Number(t === `#### ${ctx.answers[i]}`))) },
    { name: 'format', weight: 0.5, fn: async (c) => (calls.push('format'), c.map((t) => Number(t.startsWith('####')))) },
    { name: 'custom', weight: -2, whole: true, fn: (c) => (calls.push('custom'), c.map((t) => t.length)) },
  ];

  it('scores rows × functions in order, each function on the texts it reads', async () => {
    const scores = await scoreRewards(rewards, (r) => (r.whole ? texts.map((t) => `${t}!`) : texts), context);
    expect(calls).toEqual(['correctness', 'format', 'custom']);
    expect(scores).toEqual([
      [1, 1, 7],
      [0, 1, 7],
      [0, 0, 5],
      [1, 1, 8],
    ]);
    expect(scores.map((row) => weightedReward(row, rewards))).toEqual([1 + 0.5 - 14, 0.5 - 14, -10, 1 + 0.5 - 16]);
    expect(rewardMeans(rewards, scores)).toEqual({ 'rewards/correctness/mean': 0.5, 'rewards/format/mean': 0.75, 'rewards/custom/mean': 6.75 });
    expect(Object.keys(rewardMeans(rewards, scores))).toEqual(['rewards/correctness/mean', 'rewards/format/mean', 'rewards/custom/mean']);
  });

  it('passes one text list to every function when given one', async () => {
    const seen: string[][] = [];
    const spy: NamedReward = { name: 'spy', weight: 1, fn: (c) => (seen.push(c), c.map(() => 0)) };
    await scoreRewards([spy, spy], texts, context);
    expect(seen).toEqual([texts, texts]);
  });

  it('logs completion lengths and the clipped share', () => {
    expect(completionMetrics([3, 5, 8, 8], [false, false, true, false])).toEqual({ 'completions/mean_length': 6, 'completions/clipped_ratio': 0.25 });
    expect(mean([])).toBe(0);
  });
});

describe('group sampling', () => {
  it('repeats each problem num_generations times in a row and samples as generate() does with the same streams', async () => {
    expect(repeatEach(['a', 'b'], 3)).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    const model = smallModel();
    const settings = { num_generations: 3, temperature: 1, max_completion_length: task.maxCompletionLength };
    const sampled = await sampleGroups(model, task, 2, settings, { problems: createRng(7).fork('p'), sampling: createRng(7).fork('s') });
    expect(sampled.problems).toHaveLength(6);
    expect(sampled.problems[0]).toBe(sampled.problems[2]);
    expect(sampled.problems[3]).toBe(sampled.problems[5]);
    // The same draw written out by hand: the kit adds nothing to the random streams.
    const drawn = task.sample('train', 2, createRng(7).fork('p'));
    expect(sampled.problems.map((p) => p.prompt)).toEqual([0, 0, 0, 1, 1, 1].map((i) => drawn[i].prompt));
    const direct = await generate(model, sampled.prompts, { temperature: 1, max_completion_length: task.maxCompletionLength, eos_id: task.tokenizer.eos, pad_id: task.tokenizer.pad }, createRng(7).fork('s'));
    expect(sampled.generation.completions).toEqual(direct.completions);
    expect(sampled.context).toEqual({ prompts: sampled.problems.map((p) => p.prompt), answers: sampled.problems.map((p) => p.answer), truncated: direct.finished.map((f) => !f), lengths: direct.lengths });
    model.dispose();
  });
});

describe('sftStep', () => {
  const demos = (): Demonstrations => {
    const problems = task.sample('train', 8, createRng('sft-demos'));
    const completions = problems.map((p) => task.encodeCompletion(p));
    // The first row's last token is left out of the loss: the mask, not the completion, says what counts.
    return { prompts: problems.map((p) => task.encodePrompt(p)), completions, mask: completions.map((c, i) => c.map((_, t) => Number(!(i === 0 && t === c.length - 1)))) };
  };

  /** −Σ mask · log p(target) / Σ mask, computed from the model's logits here, not by lib/rl/sft.ts. */
  async function handLoss(model: TinyLM, d: Demonstrations): Promise<number> {
    const P = d.prompts[0].length;
    let total = 0;
    let count = 0;
    for (let i = 0; i < d.prompts.length; i++) {
      const ids = [...d.prompts[i], ...d.completions[i]];
      const logits = tf.tidy(() => tf.logSoftmax(model.forward(tf.tensor2d([ids.slice(0, -1)], [1, ids.length - 1], 'int32')).logits));
      const logps = (await logits.array()) as number[][][];
      logits.dispose();
      d.completions[i].forEach((token, t) => {
        if (!d.mask[i][t]) return;
        total -= logps[0][P - 1 + t][token];
        count += 1;
      });
    }
    return total / count;
  }

  it('logs the masked token-mean cross-entropy of the weights before its update, and lowers it', async () => {
    const model = smallModel(3);
    const d = demos();
    const expected = await handLoss(model, d);
    const optimizer = adam(1e-2);
    const losses: number[] = [];
    for (let s = 0; s < 5; s++) {
      const m = await inTensorScope(async (keep) => {
        const out = sftStep(model, optimizer, d, { pad: task.tokenizer.pad, maxGradNorm: 1, keep });
        return readScalars({ loss: out.loss, entropy: out.entropy, acc: out.meanTokenAccuracy, norm: out.gradNorm });
      });
      losses.push(m.loss);
      expect(m.acc).toBeGreaterThanOrEqual(0);
      expect(m.acc).toBeLessThanOrEqual(1);
      expect(m.norm).toBeGreaterThan(0);
    }
    expect(losses[0]).toBeCloseTo(expected, 4);
    expect(losses[4]).toBeLessThan(losses[0] - 0.1);
    optimizer.dispose();
    model.dispose();
  });

  it('is the SFT trainer’s step: same loss and the same weights after it, bit for bit', async () => {
    const d = demos();
    const config = resolve(sftSchema, { learning_rate: 3e-3, max_grad_norm: 0.5, per_device_train_batch_size: 8 });
    const viaTrainer = smallModel(5);
    const trainer = sftTrainerOn(viaTrainer, { batch: () => d, evaluate: async () => ({}), pad: task.tokenizer.pad }, config);
    const trainerLoss = (await trainer.trainStep()).loss;

    const direct = smallModel(5);
    const optimizer = adam(config.learning_rate);
    const step = () =>
      inTensorScope(async (keep) => {
        const out = sftStep(direct, optimizer, d, { pad: task.tokenizer.pad, maxGradNorm: config.max_grad_norm, keep });
        return readScalars({ loss: out.loss, entropy: out.entropy, accuracy: out.meanTokenAccuracy, gradNorm: out.gradNorm });
      });
    const { loss } = await step();
    expect(loss).toBe(trainerLoss);
    const a = viaTrainer.trainableVariables();
    const b = direct.trainableVariables();
    for (let v = 0; v < a.length; v++) expect(Array.from(b[v].dataSync()), a[v].name).toEqual(Array.from(a[v].dataSync()));
    // After the first step (Adam has made its slots), a step leaves no tensor behind.
    const before = tf.memory().numTensors;
    await step();
    expect(tf.memory().numTensors).toBe(before);
    trainer.dispose();
    optimizer.dispose();
    viaTrainer.dispose();
    direct.dispose();
  });
});
