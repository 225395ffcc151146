/**
 * Failures leave nothing behind: a training step that throws midway frees every tensor it made, and a trainer that
 * cannot be started frees its model, so the reader can fix the cause and try again as often as they like.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM, type DecodingSession, type FusedDecodingSession, type TinyLM } from '@/lib/models/tiny-lm';
import { createAgentTask } from '@/lib/tasks/agent';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { createAgentTrainer } from '@/lib/train/agent-trainer';
import { agentPresets } from '@/lib/train/agent-config';
import { agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { ConfigError } from '@/lib/train/config';
import { createDpoTrainer } from '@/lib/train/dpo-trainer';
import { createGrpoTrainer } from '@/lib/train/grpo-trainer';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';
import type { StepTrainer } from '@/lib/train/run';
import { createSftTrainer } from '@/lib/train/sft-trainer';
import { startTrainer, StartError } from '@/lib/spec/start';

const task = createArithmeticTask({ digits: 1, scratchpad: true });
const smallModel = (seed = 0) => createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), seed);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/**
 * Makes the model's forward pass throw on its `throwAt`-th call from now, or on its `throwAtGrad`-th call inside a
 * gradient tape (the update's forward pass, inside tf.variableGrads), counting calls meanwhile.
 */
function sabotage(model: Sabotageable) {
  const original = model.forward;
  const state = { calls: 0, gradCalls: 0, throwAt: Infinity, throwAtGrad: Infinity };
  const count = () => {
    state.calls += 1;
    if (tf.engine().state.gradientDepth > 0) state.gradCalls += 1;
    if (state.calls === state.throwAt || (tf.engine().state.gradientDepth > 0 && state.gradCalls === state.throwAtGrad)) throw new Error('forced failure inside the step');
  };
  model.forward = ((...args: never[]) => {
    count();
    return original(...args);
  }) as typeof model.forward;
  // Sampling runs through a key/value cache (the fused kernel, or tfjs): each chunk it feeds counts as a forward call too.
  const begin = model.beginDecoding;
  if (begin) {
    model.beginDecoding = () => {
      const session = begin();
      return { ...session, feed: (tokens: number[][]) => (count(), session.feed(tokens)) };
    };
  }
  const beginFused = model.beginFusedDecoding;
  if (beginFused) {
    model.beginFusedDecoding = async () => {
      const session = await beginFused();
      return session && { ...session, feed: (tokens: number[][], temperature: number) => (count(), session.feed(tokens, temperature)) };
    };
  }
  return state;
}

interface Sabotageable {
  forward: (...args: never[]) => unknown;
  beginDecoding?: () => DecodingSession;
  beginFusedDecoding?: () => Promise<FusedDecodingSession | null>;
}

/**
 * One burn-in step (Adam's slots), then a normal step to count forward calls; then steps that fail at the first
 * forward call (sampling or the first pass), at the first and at the last forward pass inside a gradient tape (the
 * updates): none may leave more tensors than there were, and the trainer must still train afterwards, back at exactly
 * the count it had.
 */
async function expectNoLeakOnThrow(trainer: StepTrainer, model: Sabotageable) {
  const calls = sabotage(model);
  await trainer.trainStep();
  [calls.calls, calls.gradCalls] = [0, 0];
  await trainer.trainStep();
  const updates = calls.gradCalls;
  expect(updates).toBeGreaterThan(0);
  const before = tf.memory().numTensors;
  for (const [what, at, atGrad] of [['first call', 1, Infinity], ['first update', Infinity, 1], ['last update', Infinity, updates]] as const) {
    [calls.calls, calls.gradCalls, calls.throwAt, calls.throwAtGrad] = [0, 0, at, atGrad];
    await expect(trainer.trainStep(), what).rejects.toThrow('forced failure');
    // Never more than before; fewer when the step also dropped a half-used generation batch (GRPO's buffer).
    expect(tf.memory().numTensors, `throw at the ${what}`).toBeLessThanOrEqual(before);
  }
  [calls.throwAt, calls.throwAtGrad] = [Infinity, Infinity];
  await trainer.trainStep();
  expect(tf.memory().numTensors).toBe(before);
}

describe('a step that throws frees what it allocated', () => {
  it('SFT (full fine-tuning and LoRA)', async () => {
    for (const use_peft of [false, true]) {
      const model = smallModel();
      const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 8, eval_samples: 10, use_peft });
      await expectNoLeakOnThrow(trainer, trainer.model);
      trainer.dispose();
      model.dispose();
    }
  });

  it('GRPO, with a KL term and two iterations per batch (reference and old log-probs in flight)', async () => {
    const model = smallModel();
    const trainer = createGrpoTrainer(model, task, { per_device_train_batch_size: 8, num_generations: 4, max_completion_length: task.maxCompletionLength, beta: 0.04, num_iterations: 2, eval_samples: 10 });
    await expectNoLeakOnThrow(trainer, model);
    trainer.dispose();
    model.dispose();
  });

  it('DPO', async () => {
    const model = smallModel();
    const sft = createSftTrainer(model, task, { per_device_train_batch_size: 16, learning_rate: 1e-2, eval_samples: 10 });
    for (let i = 0; i < 30; i++) await sft.trainStep();
    sft.dispose();
    const trainer = await createDpoTrainer(model, task, { per_device_train_batch_size: 4, num_prompts: 32, samples_per_prompt: 4, eval_samples: 10 });
    await expectNoLeakOnThrow(trainer, model);
    trainer.dispose();
    model.dispose();
  });

  it('the agent (multi-turn episodes with a calculator, observation log-probs)', async () => {
    const agentTask = createAgentTask();
    const model = createTinyLM({ ...agentModelConfig(agentTask), d_model: 16, n_layers: 1, n_heads: 2 }, 0);
    const trainer = createAgentTrainer(model, agentTask, { per_device_train_batch_size: 8, num_generations: 4, eval_samples: 10, beta: 0.04 });
    await expectNoLeakOnThrow(trainer, model);
    trainer.dispose();
    model.dispose();
  });

  it('the agent on the two-step task, with a calculator that fails calls at random', async () => {
    const twoStep = createAgentLabTask('two_step');
    const model = createTinyLM({ ...agentModelConfig(twoStep), d_model: 16, n_layers: 1, n_heads: 2 }, 0);
    const trainer = createAgentTrainer(model, twoStep, { ...agentPresets.retry.overrides, per_device_train_batch_size: 8, num_generations: 4, eval_samples: 10 });
    await expectNoLeakOnThrow(trainer, model);
    trainer.dispose();
    model.dispose();
  });

  it('PPO (rollout and minibatch updates)', async () => {
    const trainer = createPpoTrainer({ num_envs: 4, num_steps: 8, num_mini_batches: 2, num_ppo_epochs: 2 });
    await expectNoLeakOnThrow(trainer, trainer.model);
    trainer.dispose();
  });

  it('evaluation too', async () => {
    const model = smallModel();
    const trainer = createSftTrainer(model, task, { eval_samples: 10 });
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    const calls = sabotage(model);
    calls.throwAt = 2;
    await expect(trainer.evaluate()).rejects.toThrow('forced failure');
    expect(tf.memory().numTensors).toBe(before);
    trainer.dispose();
    model.dispose();
  });
});

describe('startTrainer frees everything when it cannot start', () => {
  const sftBytes = () => new Uint8Array(fs.readFileSync('public/models/sft.arlw'));

  it('refuses a bad config before building anything, and the model it loaded is freed', async () => {
    const before = tf.memory().numTensors;
    await expect(startTrainer('grpo', { init: sftBytes(), overrides: { beta: -1 } })).rejects.toBeInstanceOf(ConfigError);
    await expect(startTrainer('grpo', { init: sftBytes(), overrides: { per_device_train_batch_size: 12 } })).rejects.toThrow(/multiple of num_generations/);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('frees the model when DPO draws too few preference pairs, on every retry', async () => {
    const before = tf.memory().numTensors;
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(startTrainer('dpo', { init: sftBytes(), overrides: { num_prompts: 8, samples_per_prompt: 2, per_device_train_batch_size: 512 } })).rejects.toThrow(/preference pairs/);
      expect(tf.memory().numTensors).toBe(before);
    }
  });

  it('says which part failed: a checkpoint that cannot be read, a backend that cannot start; a retry then works', async () => {
    await expect(startTrainer('grpo', { readCheckpoint: async () => Promise.reject(new Error('HTTP 404')) })).rejects.toMatchObject({
      stage: 'checkpoint',
      message: expect.stringMatching(/models\/sft\.arlw: HTTP 404/),
    });
    const noBackend = startTrainer('ppo', { backend: { order: ['webgl'] } }); // Node has no canvas
    await expect(noBackend).rejects.toBeInstanceOf(StartError);
    await expect(noBackend).rejects.toMatchObject({ stage: 'backend' });
    const started = await startTrainer('ppo', { backend: { requested: 'cpu', order: ['cpu'] }, overrides: { num_envs: 2, num_steps: 4, num_mini_batches: 1 } });
    expect(started.backend?.backend).toBe('cpu');
    await started.trainer.trainStep();
    started.trainer.dispose();
  });

  it('a started trainer owns its model: dispose() frees all of it', async () => {
    const model: TinyLM = smallModel();
    const bytes = await saveTinyLM(model);
    model.dispose();
    const before = tf.memory().numTensors;
    const { trainer } = await startTrainer('sft', { init: bytes, overrides: { use_peft: true, eval_samples: 10 } });
    expect(tf.memory().numTensors).toBeGreaterThan(before);
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
