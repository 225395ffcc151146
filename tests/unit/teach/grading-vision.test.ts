/**
 * Grading the vision lab (lib/train/grading/vision.ts), with tfjs on wasm: a short run started as the CLI starts it
 * is saved; its file fits the config it was trained under and no other; on the lab's test set the saved weights give
 * exactly the run's own last evaluation; the instructor's seeded set is the same for a seed and moves with it; another
 * run's weights score differently; and nothing stays allocated.
 */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { reencode, twoSavedRuns } from './grading-runs';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { visionLMWeightShapes } from '@/lib/models/shapes';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createVisionLM } from '@/lib/models/vision-lm';
import { decodeWeightsFile, WeightsFileError } from '@/lib/models/weights-file';
import { TRAINERS } from '@/lib/spec/registry';
import { visionGrading } from '@/lib/train/grading/vision';
import { visionModelConfig, visionTaskFor, resolveVisionConfig } from '@/lib/train/vision-trainer';

/**
 * Ten fast SFT steps and two GRPO steps on 2 × 2 pictures: a few seconds, both phases' weights in the file, and a
 * model that already answers some questions right (after 3 steps every answer is wrong, and every run scores 0).
 */
const CONFIG = { init_from: 'base', grid_size: 2, sft_steps: 10, sft_learning_rate: 1e-2, sft_batch_size: 16, max_steps: 12, eval_steps: 12, eval_samples: 24, per_device_train_batch_size: 8, num_generations: 4 };

const runs = twoSavedRuns('vision', CONFIG);

describe('vision grading: does the file fit the config', () => {
  it('knows the vision LM’s weights without building it', () => {
    const config = visionModelConfig(visionTaskFor(resolveVisionConfig({ grid_size: 3 })));
    const model = createVisionLM(config, 0);
    expect(visionLMWeightShapes(config)).toEqual(new Map([...model.namedWeights()].map(([name, v]) => [name, [...v.shape]])));
    model.dispose();
  });

  it('accepts the run’s own file under its config, and names what differs otherwise', async () => {
    const [{ config, weights }] = runs();
    const file = decodeWeightsFile(weights);
    expect(visionGrading.weightsProblem(config, file)).toBeNull();
    // Another picture size: a 3 × 3 grid has 9 image tokens, so the encoder's patch grid differs first.
    expect(visionGrading.weightsProblem({ ...config, grid_size: 3 }, file)).toBe("encoder.patch_grid is 2 in the weights but 3 in the lab's model");
    // Settings that leave the model alone still fit it.
    expect(visionGrading.weightsProblem({ ...config, use_image: false, learning_rate: 3e-3 }, file)).toBeNull();
    expect(visionGrading.weightsProblem({ ...config, grid_size: 9 }, file)).toMatch(/grid_size/); // out of the schema's range
    const text = decodeWeightsFile(await saveTinyLM(createTinyLM({ vocab_size: 24, context_length: 8, d_model: 32, n_layers: 2, n_heads: 4 }, 0)));
    expect(visionGrading.weightsProblem(config, text)).toBe("the weights are a 'tiny-lm' model; vision trains a 'vision-lm'");
  });

  it('refuses a file whose tensors or header were edited', () => {
    const [{ config, weights }] = runs();
    const noPositions = decodeWeightsFile(reencode(weights, (f) => (f.tensors = f.tensors.filter((t) => t.name !== 'image.pos'))));
    expect(visionGrading.weightsProblem(config, noPositions)).toBe("tensor 'image.pos' that the config implies is missing from the file");
    const wider = decodeWeightsFile(reencode(weights, (f) => ((f.config.lm as { d_model: number }).d_model = 64)));
    expect(visionGrading.weightsProblem(config, wider)).toBe('encoder.d_model (32) must equal lm.d_model (64)');
    const deeper = decodeWeightsFile(reencode(weights, (f) => ((f.config.lm as { n_layers: number }).n_layers = 1)));
    expect(visionGrading.weightsProblem(config, deeper)).toMatch(/^the file has a tensor 'blocks\.1\./);
  });
});

describe('vision grading: evaluation', () => {
  it('reproduces the run’s own last evaluation from its weights, exactly, and frees what it allocated', async () => {
    const [{ config, weights, lastEval }] = runs();
    expect(lastEval['eval/accuracy']).toBeGreaterThan(0); // a reproduction worth checking: not every answer wrong
    const before = tf.memory().numTensors;
    const again = await visionGrading.evaluate(weights, config, { kind: 'public' });
    expect(tf.memory().numTensors).toBe(before);
    expect(Object.keys(again).sort()).toEqual(['eval/accuracy', 'eval/accuracy_colour_at', 'eval/accuracy_count_colour', 'eval/accuracy_count_shape']);
    expect(again).toEqual(lastEval);
    for (const metric of Object.keys(again)) expect(TRAINERS.vision.grading.metrics.map((m) => m.name)).toContain(metric);
  });

  it('on the instructor’s seeded set: the same for a seed, different for another seed', async () => {
    const [{ config, weights }] = runs();
    const before = tf.memory().numTensors;
    const seeded = (seed: number) => visionGrading.evaluate(weights, config, { kind: 'seeded', seed, samples: 40 });
    const [a, again, b] = [await seeded(7), await seeded(7), await seeded(8)];
    expect(tf.memory().numTensors).toBe(before);
    expect(a['eval/accuracy']).toBeGreaterThan(0);
    expect(again).toEqual(a);
    expect(b).not.toEqual(a);
    expect(a).not.toEqual(runs()[0].lastEval); // not the public test set
  });

  it('scores another run’s weights differently (swapped weights are caught)', async () => {
    const [mine, other] = runs();
    expect(visionGrading.weightsProblem(mine.config, decodeWeightsFile(other.weights))).toBeNull(); // same architecture
    const swapped = await visionGrading.evaluate(other.weights, mine.config, { kind: 'public' });
    expect(swapped).toEqual(other.lastEval); // the other run's own numbers, not this run's claim
    expect(swapped).not.toEqual(mine.lastEval);
  });

  it('throws on weights that do not fit, leaving nothing allocated', async () => {
    const [{ config, weights }] = runs();
    const before = tf.memory().numTensors;
    await expect(visionGrading.evaluate(weights, { ...config, grid_size: 3 }, { kind: 'public' })).rejects.toThrow(WeightsFileError);
    await expect(visionGrading.evaluate(weights.slice(0, 100), config, { kind: 'public' })).rejects.toThrow(/truncated/);
    expect(tf.memory().numTensors).toBe(before);
  });
});
