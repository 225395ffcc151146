/**
 * The vision trainer: SFT steps then GRPO steps, each phase logging its own metrics; no tensor leaks across steps,
 * the phase switch and evaluations; the inspector holds what the contract (lib/train/vision-inspector.ts) says; under
 * text_only nothing of the picture reaches the model; a saved run loads back and a wrong file gets one clear error;
 * and a short seeded run (wasm) learns to read small pictures.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { visionFactory, type VisionTrainer } from '@/lib/train/vision-trainer';

beforeAll(async () => {
  await selectBackend({ requested: 'cpu', order: ['cpu'] });
});

/** A small model of its own (the shipped checkpoint reads 4 × 4 pictures): 2 × 2 pictures, from base. */
const SMALL = { init_from: 'base', grid_size: 2, per_device_train_batch_size: 16, num_generations: 4, sft_batch_size: 16, eval_samples: 20 };
const start = async (overrides: Record<string, unknown> = {}) => (await startTrainer('vision', { overrides: { ...SMALL, ...overrides } })).trainer as VisionTrainer;

describe('vision trainer', () => {
  it('defaults: GRPO from the SFT checkpoint, each step as many pictures as an SFT step (32), 8 answers each; from_scratch runs the 800 SFT steps live', async () => {
    const { resolveVisionConfig } = await import('@/lib/train/vision-trainer');
    const { VISION_GRPO_STEPS, VISION_SFT, visionPresets } = await import('@/lib/train/vision-config');
    const c = resolveVisionConfig();
    expect([c.init_from, c.sft_steps, c.max_steps]).toEqual(['sft', 0, VISION_GRPO_STEPS]);
    expect([c.per_device_train_batch_size / c.num_generations, c.num_generations]).toEqual([c.sft_batch_size, 8]);
    expect(c.max_steps % c.eval_steps).toBe(0);
    const scratch = resolveVisionConfig(visionPresets.from_scratch.overrides);
    expect([scratch.init_from, scratch.sft_steps, scratch.max_steps - scratch.sft_steps]).toEqual(['base', VISION_SFT.steps, 800]);
    // Every preset that builds its own model evaluates at the end of its SFT phase: the claims' starting point.
    for (const preset of ['from_scratch', 'text_only', 'counting'] as const) {
      const p = resolveVisionConfig(visionPresets[preset].overrides);
      expect([p.init_from, p.sft_steps, p.sft_steps % p.eval_steps]).toEqual(['base', VISION_SFT.steps, 0]);
    }
    // text_only is the default's training without the picture: the checkpoint's SFT steps, then the default's GRPO steps.
    expect(resolveVisionConfig(visionPresets.text_only.overrides).max_steps).toBe(VISION_SFT.steps + VISION_GRPO_STEPS);
  });

  it('runs SFT steps, then GRPO steps, with flat tf.memory().numTensors', async () => {
    const trainer = await start({ sft_steps: 2 });
    const first = await trainer.trainStep(); // SFT burn-in: Adam makes its slots
    expect(first).toMatchObject({ phase: 0 });
    expect(first['sft/loss']).toBeGreaterThan(0);
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    await trainer.trainStep();
    await trainer.evaluate();
    expect(tf.memory().numTensors).toBe(before);
    const grpo = await trainer.trainStep(); // GRPO burn-in: its own Adam's slots, the batch's pictures
    expect(grpo).toMatchObject({ phase: 1 });
    expect(grpo.reward).toBeGreaterThanOrEqual(0); // a share of right answers: 0 to 1
    expect(grpo.reward).toBeLessThanOrEqual(1);
    expect('sft/loss' in grpo).toBe(false);
    const afterSwitch = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await trainer.trainStep();
    await trainer.evaluate();
    await trainer.inspect();
    expect(tf.memory().numTensors).toBe(afterSwitch);
    trainer.dispose();
  });

  it('inspects the latest groups as the contract says', async () => {
    const trainer = await start({ sft_steps: 1 });
    expect(await trainer.inspect()).toBeNull();
    await trainer.trainStep();
    const sft = (await trainer.inspect())!;
    expect(sft.phase).toBe('sft');
    expect(sft.groups[0].answers).toHaveLength(1); // SFT samples nothing: the inspector answers greedily
    await trainer.trainStep();
    const inspected = (await trainer.inspect())!;
    expect(inspected.phase).toBe('grpo');
    expect(inspected.groups).toHaveLength(4);
    for (const g of inspected.groups) {
      expect(g.answers).toHaveLength(4); // num_generations
      expect(g.scene!.cells).toHaveLength(4);
      expect(g.patchGrid).toBe(2);
      expect(g.attention).toHaveLength(4);
      const total = g.attention!.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(1 + 1e-6);
      for (const a of g.answers) expect(a.correct).toBe(a.completion === g.truth);
    }
    trainer.dispose();
  });

  it('under text_only shows no picture and trains no image encoder', async () => {
    const trainer = await start({ sft_steps: 1, use_image: false });
    const W = trainer.model.encoder.namedWeights().get('image.proj.W')!;
    const w0 = Array.from(W.dataSync());
    await trainer.trainStep();
    await trainer.trainStep();
    expect(Array.from(W.dataSync())).toEqual(w0);
    const inspected = (await trainer.inspect())!;
    expect(inspected.groups[0].scene).toBeNull();
    expect(inspected.groups[0].attention).toBeNull();
    trainer.dispose();
  });

  it('saves a run that loads back, and refuses a file that is not a vision model', async () => {
    const trainer = await start({ sft_steps: 3 });
    await trainer.trainStep();
    const bytes = await trainer.save();
    const loaded = (await startTrainer('vision', { overrides: SMALL, init: bytes })).trainer; // as --init FILE
    const [a, b] = [await trainer.evaluate(), await loaded.evaluate()];
    expect(b).toEqual(a);
    loaded.dispose();
    const lm = createTinyLM({ vocab_size: 5, context_length: 4, d_model: 8, n_layers: 1, n_heads: 2 }, 0);
    await expect(visionFactory(await saveTinyLM(lm), SMALL)).rejects.toThrow(/holds a 'tiny-lm' model, not a 'vision-lm'/);
    await expect(visionFactory(bytes, { ...SMALL, grid_size: 3 })).rejects.toThrow(/does not fit 3 × 3 pictures/);
    lm.dispose();
    trainer.dispose();
  });

  // On wasm (as `npm run train -- vision --backend wasm`): the CPU backend needs ~45 s for a run that shows anything.
  it('learns to read 2 × 2 pictures (seeded, wasm), well above the text-only floor', async () => {
    await selectBackend({ requested: 'wasm', order: ['wasm'] });
    const run = async (use_image: boolean) => {
      const trainer = await start({ sft_steps: 400, eval_samples: 200, use_image, seed: 1 });
      for (let i = 0; i < 400; i++) await trainer.trainStep();
      const accuracy = (await trainer.evaluate())['eval/accuracy'];
      trainer.dispose();
      return accuracy;
    };
    const [seeing, blind] = [await run(true), await run(false)];
    expect(seeing).toBeGreaterThan(blind + 0.2);
    await selectBackend({ requested: 'cpu', order: ['cpu'] });
  }, 60_000);
});
