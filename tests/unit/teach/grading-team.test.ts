/**
 * Grading the team lab (lib/train/grading/team.ts), with tfjs on wasm: a short run started as the CLI starts it (the
 * receiver from its shipped SFT checkpoint) saves both roles in one file; that file fits the team and nothing short
 * of it does; on the lab's test set it gives exactly the run's own last evaluation; the instructor's seeded set is
 * the same for a seed and moves with it; another run's team scores differently; and nothing stays allocated.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { reencode, twoSavedRuns } from './grading-runs';
import { saveWeights } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { decodeWeightsFile, WeightsFileError } from '@/lib/models/weights-file';
import { TRAINERS } from '@/lib/spec/registry';
import { createTeamTask } from '@/lib/tasks/team';
import { teamGrading } from '@/lib/train/grading/team';
import { receiverModelConfig, senderModelConfig, teamModels } from '@/lib/train/team-trainer';

const RECEIVER_SFT = new Uint8Array(fs.readFileSync('public/models/team-receiver-sft.arlw'));

/** Three steps of 4 problems × 4 rollouts, evaluated on 40 held-out problems: a few seconds. */
const CONFIG = { per_device_train_batch_size: 16, num_generations: 4, max_steps: 3, eval_steps: 3, eval_samples: 40 };

const runs = twoSavedRuns('team', CONFIG);

describe('team grading: does the file fit the config', () => {
  it('accepts the run’s own file (both roles) under any team config', () => {
    const [{ config, weights }] = runs();
    const file = decodeWeightsFile(weights);
    expect(file.tensors.some((t) => t.name.startsWith('sender.')) && file.tensors.some((t) => t.name.startsWith('receiver.'))).toBe(true);
    expect(teamGrading.weightsProblem(config, file)).toBeNull();
    // Both roles are sized for the longest channel, so every channel setting fits the same file.
    expect(teamGrading.weightsProblem({ ...config, max_message_length: 4, blank_channel: true }, file)).toBeNull();
    expect(teamGrading.weightsProblem({ ...config, max_message_length: 9 }, file)).toMatch(/max_message_length/);
  });

  it('refuses one policy alone, a file missing a role, and a role of another size', async () => {
    const [{ config, weights }] = runs();
    // The receiver's SFT checkpoint: the model a team run starts from, not a submission.
    expect(teamGrading.weightsProblem(config, decodeWeightsFile(RECEIVER_SFT))).toBe("the weights are a 'tiny-lm' model; team trains a 'team' (a sender and a receiver in one file)");
    const senderOnly = reencode(weights, (f) => {
      f.tensors = f.tensors.filter((t) => t.name.startsWith('sender.'));
      delete f.config.receiver;
    });
    expect(teamGrading.weightsProblem(config, decodeWeightsFile(senderOnly))).toBe('the weights hold no receiver: a team file carries both roles');
    const noReceiverTensors = reencode(weights, (f) => (f.tensors = f.tensors.filter((t) => !t.name.startsWith('receiver.'))));
    expect(teamGrading.weightsProblem(config, decodeWeightsFile(noReceiverTensors))).toBe("receiver: tensor 'tok_emb' that the config implies is missing from the file");
    const task = createTeamTask();
    const narrow = teamModels(createTinyLM({ ...senderModelConfig(task), d_model: 16 }, 0), createTinyLM(receiverModelConfig(task), 0));
    const narrowFile = decodeWeightsFile(await saveWeights(narrow));
    narrow.dispose();
    expect(teamGrading.weightsProblem(config, narrowFile)).toBe("sender.d_model is 16 in the weights but 32 in the lab's model");
    const stray = reencode(weights, (f) => f.tensors.push({ name: 'critic.W', shape: [1], values: new Float32Array(1) }));
    expect(teamGrading.weightsProblem(config, decodeWeightsFile(stray))).toBe("the file has a tensor 'critic.W' that belongs to neither the sender nor the receiver");
  });
});

describe('team grading: evaluation', () => {
  it('reproduces the run’s own last evaluation from its weights, exactly, and frees what it allocated', async () => {
    const [{ config, weights, lastEval }] = runs();
    expect(lastEval['eval/accuracy']).toBeGreaterThan(0);
    const before = tf.memory().numTensors;
    const again = await teamGrading.evaluate(weights, config, { kind: 'public' });
    expect(tf.memory().numTensors).toBe(before);
    expect(again).toEqual(lastEval);
    expect(Object.keys(again).sort()).toEqual(TRAINERS.team.grading.metrics.map((m) => m.name).sort());
    for (const { name: metric, min, max } of TRAINERS.team.grading.metrics) {
      expect(again[metric]).toBeGreaterThanOrEqual(min);
      expect(again[metric]).toBeLessThanOrEqual(max);
    }
  });

  it('on the instructor’s seeded set: the same for a seed, different for another seed', async () => {
    const [{ config, weights }] = runs();
    const before = tf.memory().numTensors;
    const seeded = (seed: number) => teamGrading.evaluate(weights, config, { kind: 'seeded', seed, samples: 40 });
    const [a, again, b] = [await seeded(7), await seeded(7), await seeded(8)];
    expect(tf.memory().numTensors).toBe(before);
    expect(again).toEqual(a);
    expect(b).not.toEqual(a);
    expect(a).not.toEqual(runs()[0].lastEval); // not the public test set
  });

  it('under the config’s channel: a blank channel is evaluated as blank', async () => {
    const [{ config, weights }] = runs();
    const blank = await teamGrading.evaluate(weights, { ...config, blank_channel: true }, { kind: 'public' });
    expect(blank['eval/accuracy']).toBe(blank['eval/accuracy_blank_channel']);
    expect(blank['eval/message_length']).toBe(0);
  });

  it('scores another run’s team differently (swapped weights are caught)', async () => {
    const [mine, other] = runs();
    expect(teamGrading.weightsProblem(mine.config, decodeWeightsFile(other.weights))).toBeNull(); // same architecture
    const swapped = await teamGrading.evaluate(other.weights, mine.config, { kind: 'public' });
    expect(swapped).toEqual(other.lastEval); // the other run's own numbers, not this run's claim
    expect(swapped).not.toEqual(mine.lastEval);
  });

  it('throws on weights that do not fit, leaving nothing allocated', async () => {
    const [{ config }] = runs();
    const before = tf.memory().numTensors;
    await expect(teamGrading.evaluate(RECEIVER_SFT, config, { kind: 'public' })).rejects.toThrow(WeightsFileError);
    expect(tf.memory().numTensors).toBe(before);
  });
});
