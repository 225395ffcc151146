/**
 * The team trainer: each role's batch holds only its own tokens in its loss; both roles get the team's one reward in
 * the same groups; the frozen sender never moves; no tensor leaks across steps; a saved team loads back and a wrong
 * file gets one clear error; and a short seeded run on wasm (as `npm run train -- team --backend wasm`) learns.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { createTeamTask } from '@/lib/tasks/team';
import { selectBackend } from '@/lib/tf/backend';
import { TrainingRun } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { roleBatch, teamFactory, type TeamTrainer } from '@/lib/train/team-trainer';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const SMALL = { per_device_train_batch_size: 16, num_generations: 4, eval_samples: 20 };
const start = async (overrides: Record<string, unknown> = {}) => (await startTrainer('team', { overrides: { ...SMALL, ...overrides }, readCheckpoint })).trainer as TeamTrainer;
const weights = async (m: { namedWeights(): ReadonlyMap<string, tf.Variable> }) => Promise.all([...m.namedWeights().values()].map(async (v) => Array.from(await v.data())));

describe('team trainer', () => {
  it('masks each role’s loss to its own tokens and gives both roles the team’s reward', async () => {
    const trainer = await start();
    const task = createTeamTask();
    const problems = task.sample('train', 4, createRng(3)).flatMap((p) => [p, p, p, p]);
    const r = await trainer.rollout(problems);
    const sender = roleBatch('sender', r, task.tokenizer.pad);
    const receiver = roleBatch('receiver', r, task.tokenizer.pad);
    expect(sender.rewardsPerFunc).toEqual(receiver.rewardsPerFunc);
    problems.forEach((p, i) => {
      // The sender's prompt holds only the target; its loss covers its message up to EOS, nothing after.
      expect(task.tokenizer.decode(sender.prompts[i])).toBe(`${p.target}|`);
      const end = r.messages[i].indexOf(task.tokenizer.eos);
      const said = end < 0 ? r.messages[i].length : end + 1;
      expect(sender.lossMask[i]).toEqual(r.messages[i].map((_, t) => (t < said ? 1 : 0)));
      // The board and the partner's message are in the receiver's prompt, never in what it is trained on: one token.
      expect(task.tokenizer.decode(receiver.prompts[i]).startsWith(`${p.board}|`)).toBe(true);
      expect(receiver.prompts[i]).toEqual(task.encodeReceiverPrompt(p, r.messages[i], trainer.config.max_message_length, false));
      expect(receiver.completions[i]).toHaveLength(1);
      expect(receiver.lossMask[i]).toEqual([1]);
      expect(r.rewards[i]).toBe(Number(task.tokenizer.decode(r.replies[i]) === p.answer));
    });
    trainer.dispose();
  });

  it('keeps tf.memory().numTensors flat across steps and evaluations', async () => {
    const trainer = await start();
    await trainer.trainStep(); // burn-in: Adam makes its slots
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await trainer.trainStep();
    await trainer.evaluate();
    expect(tf.memory().numTensors).toBe(before);
    trainer.dispose();
  });

  it('frozen_sender updates only the receiver; by default both roles move', async () => {
    for (const train_sender of [false, true]) {
      const trainer = await start({ train_sender });
      const [s0, r0] = [await weights(trainer.model.sender), await weights(trainer.model.receiver)];
      for (let i = 0; i < 2; i++) await trainer.trainStep();
      const [s1, r1] = [await weights(trainer.model.sender), await weights(trainer.model.receiver)];
      expect(JSON.stringify(s1) === JSON.stringify(s0)).toBe(!train_sender);
      expect(JSON.stringify(r1) === JSON.stringify(r0)).toBe(false);
      trainer.dispose();
    }
  });

  it('saves both roles in one file that loads back; a file of another model gets one clear error', async () => {
    const trainer = await start();
    await trainer.trainStep();
    const bytes = await trainer.save();
    const loaded = await teamFactory(bytes, SMALL);
    expect(await weights(loaded.model)).toEqual(await weights(trainer.model));
    loaded.dispose();
    trainer.dispose();
    await expect(teamFactory(await readCheckpoint('models/agent-sft.arlw'), SMALL)).rejects.toThrow(/not a team receiver/);
  });

  it('learns (seed 1, wasm): held-out team accuracy rises by at least 30 points in 30 steps and the messages come to name the target', async () => {
    const { trainer } = await startTrainer('team', { overrides: { seed: 1, eval_samples: 100 }, readCheckpoint });
    const run = new TrainingRun(trainer, { maxSteps: 30, evalEvery: 30 });
    expect(await run.run(), run.error ?? '').toBe('done');
    const [first, lastEval] = [run.history.find((l) => l.kind === 'eval')!.metrics, run.history.filter((l) => l.kind === 'eval').at(-1)!.metrics];
    expect(lastEval['eval/accuracy'] - first['eval/accuracy']).toBeGreaterThanOrEqual(0.3);
    expect(lastEval['eval/message_decodability']).toBeGreaterThan(first['eval/message_decodability']);
    trainer.dispose();
  }, 120_000);
});
