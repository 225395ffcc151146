/**
 * What a reader brings really trains: a reward function they wrote (run in the Node sandbox, as the CLI runs it)
 * drives GRPO towards the trait it pays for; a dataset file replaces the task for GRPO, SFT and DPO; and a reward
 * function that misbehaves stops the run with one message, the history so far kept. Seeded, on wasm.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { createRng } from '@/lib/random';
import { asRewardModule, REWARD_EXAMPLES, REWARD_TIME_LIMIT_MS, sandboxedReward } from '@/lib/tasks/custom-reward';
import { parseDataset } from '@/lib/tasks/dataset';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import type { TrainerExtras } from '@/lib/train/trainer';
import type { TrainerName } from '@/lib/spec/registry';

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const sandboxes: { dispose(): void }[] = [];

beforeAll(async () => {
  expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
});
afterAll(async () => {
  sandboxes.forEach((s) => s.dispose());
  await tf.setBackend('cpu');
});

/** A reward module's source, loaded in a Node sandbox, as the trainer's extra reward. */
async function rewardFrom(source: string, weight = 1): Promise<NonNullable<TrainerExtras['reward']>> {
  const sandbox = createNodeSandbox();
  sandboxes.push(sandbox);
  const loaded = await sandbox.load(source, 'default', REWARD_TIME_LIMIT_MS);
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  return { fn: sandboxedReward((args, ms) => sandbox.call(args, ms)), weight };
}

async function run(trainer: TrainerName, overrides: Record<string, unknown>, extras: TrainerExtras, steps: number, evalEvery: number) {
  const { trainer: t } = await startTrainer(trainer, { overrides: { seed: 0, ...overrides }, readCheckpoint, extras });
  const tensors: number[] = [];
  const training = new TrainingRun(t, { maxSteps: steps, evalEvery, afterStep: async () => void tensors.push(tf.memory().numTensors) });
  const state = await training.run();
  t.dispose();
  return { state, error: training.error, history: training.history, tensors };
}
const series = (h: LogLine[], metric: string) => h.filter((l) => l.kind === 'train').map((l) => l.metrics[metric]);
const evals = (h: LogLine[]) => h.filter((l) => l.kind === 'eval').map((l) => l.metrics['eval/accuracy']);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Addition off by one: a task the SFT model gets wrong (it answers a + b), for GRPO and SFT to learn from a file. */
function offByOneFile(n: number): string {
  const rng = createRng('off-by-one');
  return Array.from({ length: n }, () => {
    const [a, b] = [rng.int(100), rng.int(100)];
    return JSON.stringify({ prompt: `${String(a).padStart(2, '0')}+${String(b).padStart(2, '0')}=`, answer: String(a + b + 1) });
  }).join('\n');
}

describe('a reader’s reward function', () => {
  it('drives GRPO: the trait it pays for (an even answer) becomes more frequent', async () => {
    const even = 'export default function (completions) {\n  return completions.map((text) => {\n    const m = /####\\s*(-?\\d+)/.exec(text);\n    return m && Number(m[1]) % 2 === 0 ? 1 : 0;\n  });\n}\n';
    // Only the reader's reward counts: correctness and format are switched off.
    const { state, history, tensors } = await run('grpo', { reward_weight_correctness: 0, reward_weight_format: 0 }, { reward: await rewardFrom(even) }, 24, 0);
    expect(state).toBe('done');
    const share = series(history, 'rewards/custom/mean'); // the share of sampled completions with an even answer
    expect(mean(share.slice(-5))).toBeGreaterThan(mean(share.slice(0, 5)) + 0.2);
    expect(mean(share.slice(-5))).toBeGreaterThan(0.75);
    // No tensor leaks across steps, the reward round trip included.
    expect(new Set(tensors.slice(2))).toEqual(new Set([tensors[2]]));
  }, 120_000);

  it('is combined with the built-in rewards by its weight, and logged as rewards/custom/mean', async () => {
    // The correctness example written as a file gives exactly the built-in correctness column.
    const { history } = await run('grpo', {}, { reward: await rewardFrom(asRewardModule(REWARD_EXAMPLES.correctness.source), 0.5) }, 2, 0);
    for (const line of history.filter((l) => l.kind === 'train')) {
      expect(line.metrics['rewards/custom/mean']).toBeCloseTo(line.metrics['rewards/correctness/mean'], 12);
      // reward = 1·correctness + 0.2·format + 0.5·custom, averaged over the batch
      expect(line.metrics.reward).toBeCloseTo(1.5 * line.metrics['rewards/correctness/mean'] + 0.2 * line.metrics['rewards/format/mean'], 6);
    }
  }, 60_000);

  it('reaches the agent too: scored on whole episodes, calls and replies included, with the prompts in ctx', async () => {
    // The correctness example gives the built-in column exactly; it throws if a prompt is not an agent problem.
    const source = asRewardModule(REWARD_EXAMPLES.correctness.source.replace('return completions.map(', 'if (!ctx.prompts.every((p) => /^\\d{3}\\*\\d=$/.test(p))) throw new Error("prompts: " + ctx.prompts[0]);\n  return completions.map('));
    const { state, error, history } = await run('agent', { eval_steps: 0 }, { reward: await rewardFrom(source, 0.5) }, 2, 0);
    expect(state, error).toBe('done');
    for (const line of history.filter((l) => l.kind === 'train')) expect(line.metrics['rewards/custom/mean']).toBeCloseTo(line.metrics['rewards/correctness/mean'], 12);
  }, 60_000);

  it.each([
    ['a throw, with its line', 'export default function (c, ctx) {\n  return ctx.missing.length;\n}', 'the reward function failed: line 2: TypeError: Cannot read properties of undefined'],
    ['an infinite loop', 'export default () => {\n  while (true) {}\n}', 'the reward function failed: stopped after 2000 ms: the code did not return (an infinite loop?)'],
    ['a wrong length', 'export default (c) => c.slice(1).map(() => 0)', 'the reward function returned 63 values for 64 completions'],
    ['a non-finite value', 'export default (c) => c.map((_, i) => (i === 5 ? Infinity : 0))', 'the reward function returned Infinity for completion 5'],
    ['not an array', 'export default () => ({ reward: 1 })', 'the reward function returned an object, not an array of 64 numbers'],
  ])('stops the run on %s, with the history so far kept', async (_what, source, message) => {
    const { state, error, history } = await run('grpo', { eval_steps: 1 }, { reward: await rewardFrom(source) }, 3, 1);
    expect(state).toBe('failed');
    expect(error).toContain(`Training failed at step 1: ${message}`);
    expect(history.map((l) => `${l.kind}@${l.step}`)).toEqual(['eval@0']);
  }, 60_000);
});

describe('a reader’s dataset', () => {
  it('GRPO learns a task from a file that the SFT model gets wrong', async () => {
    const dataset = parseDataset(offByOneFile(400), 'prompt-answer');
    const { state, history, tensors } = await run('grpo', { eval_steps: 20 }, { dataset }, 20, 20);
    expect(state).toBe('done');
    const [before, after] = evals(history);
    expect(before).toBeLessThan(0.1);
    expect(after).toBeGreaterThan(before + 0.15);
    expect(new Set(tensors.slice(2))).toEqual(new Set([tensors[2]]));
  }, 120_000);

  it('SFT learns it too, and from the addition model it still measures forgetting', async () => {
    const dataset = parseDataset(offByOneFile(400), 'prompt-answer');
    const { history } = await run('sft', { init_from: 'addition_sft', eval_steps: 100 }, { dataset }, 100, 100);
    const [before, after] = history.filter((l) => l.kind === 'eval').map((l) => l.metrics);
    expect(before['eval/accuracy']).toBe(0);
    expect(after['eval/accuracy']).toBeGreaterThan(0.05);
    expect(after['eval/old_task_accuracy']).toBeLessThan(before['eval/old_task_accuracy']);
  }, 120_000);

  it('DPO trains on the pairs of a file: the chosen answer’s margin grows', async () => {
    const rng = createRng('pairs');
    const file = Array.from({ length: 300 }, () => {
      const [a, b] = [rng.int(100), rng.int(100)];
      const prompt = `${String(a).padStart(2, '0')}+${String(b).padStart(2, '0')}=`;
      return JSON.stringify({ prompt, chosen: `#### ${a + b}`, rejected: `#### ${a + b + (rng.next() < 0.5 ? 1 : -1)}` });
    }).join('\n');
    const { state, history } = await run('dpo', { eval_steps: 0 }, { dataset: parseDataset(file, 'preference') }, 20, 0);
    expect(state).toBe('done');
    const margins = series(history, 'rewards/margins');
    expect(mean(margins.slice(-5))).toBeGreaterThan(mean(margins.slice(0, 5)));
  }, 120_000);

  it('is refused by a trainer that cannot use it, before training', async () => {
    const pairs = parseDataset(JSON.stringify({ prompt: '1+1=', chosen: '#### 2', rejected: '#### 3', split: 'train' }) + '\n' + JSON.stringify({ prompt: '2+2=', chosen: '#### 4', rejected: '#### 5', split: 'test' }), 'preference');
    await expect(startTrainer('grpo', { readCheckpoint, extras: { dataset: pairs } })).rejects.toThrow('grpo trains on prompt/answer lines, not preference pairs');
    await expect(startTrainer('dpo', { readCheckpoint, extras: { dataset: pairs } })).rejects.toThrow('the file has 1 training pairs, fewer than per_device_train_batch_size (32)');
    const tooLong = parseDataset(`{"prompt": "1234567+1=", "answer": "1"}\n{"prompt": "1=", "answer": "1", "split": "test"}`, 'prompt-answer');
    await expect(startTrainer('grpo', { readCheckpoint, extras: { dataset: tooLong } })).rejects.toThrow('line 1: the prompt has 10 characters');
    expect(tf.memory().numTensors).toBe(0);
  }, 60_000);
});
