/** The LoRA lab's analysis on a small model: update spectra, the merge check and the adapter export. */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { decodeWeightsFile } from '@/lib/models/weights-file';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { createSftTrainer } from '@/lib/train/sft-trainer';

const task = createArithmeticTask({ digits: 1, scratchpad: true });
const smallModel = () => createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), 0);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('LoRA analysis', () => {
  it('a rank-2 adapter’s update has at most 2 nonzero singular values; full fine-tuning’s uses more directions', async () => {
    const model = smallModel();
    const lora = createSftTrainer(model, task, { use_peft: true, r: 2, lora_alpha: 4, learning_rate: 1e-2, per_device_train_batch_size: 8, eval_samples: 10 });
    expect(await lora.inspect()).toBeNull(); // nothing to show before a step
    for (let i = 0; i < 3; i++) await lora.trainStep();
    const spectrum = (await lora.inspect())!;
    expect(spectrum.kind).toBe('lora');
    expect(spectrum.layers.map((l) => l.name)).toEqual(['blocks.0.qkv', 'blocks.0.out', 'blocks.0.fc1', 'blocks.0.fc2']);
    for (const layer of spectrum.layers) {
      expect(layer.singular.filter((s) => s > 1e-5 * layer.singular[0]).length).toBeLessThanOrEqual(2);
      expect(layer.effectiveRank).toBeLessThanOrEqual(2 + 1e-9);
    }
    lora.dispose();

    const full = createSftTrainer(model, task, { learning_rate: 1e-2, per_device_train_batch_size: 8, eval_samples: 10 });
    for (let i = 0; i < 3; i++) await full.trainStep();
    const fullSpectrum = (await full.inspect())!;
    expect(fullSpectrum.kind).toBe('full');
    expect(Math.max(...fullSpectrum.layers.map((l) => l.effectiveRank))).toBeGreaterThan(2);
    full.dispose();
    model.dispose();
  });

  it('merging the adapter changes the outputs by float32 rounding only, and unmerging restores them', async () => {
    const model = smallModel();
    const trainer = createSftTrainer(model, task, { use_peft: true, r: 2, lora_alpha: 4, learning_rate: 1e-2, per_device_train_batch_size: 8, eval_samples: 10 });
    for (let i = 0; i < 3; i++) await trainer.trainStep();
    const before = tf.memory().numTensors;
    const { summary } = await trainer.actions!.merge_check();
    expect(tf.memory().numTensors).toBe(before);
    const logits = /unmerged logits \(.*?\) is (0|\d\.\de[+-]\d+)/.exec(summary)?.[1];
    const drift = /back to within (\d\.\de[+-]\d+)/.exec(summary)?.[1];
    expect(Number(logits)).toBeLessThan(1e-5);
    expect(Number(drift)).toBeLessThan(1e-5);
    expect(trainer.model.loraMerged).toBe(false);
    trainer.dispose();
    model.dispose();
  });

  it('exports the adapter alone, far smaller than the checkpoint; full fine-tuning has none', async () => {
    const model = smallModel();
    const lora = createSftTrainer(model, task, { use_peft: true, r: 2, eval_samples: 10 });
    const { summary, file } = await lora.actions!.export_adapter();
    const decoded = decodeWeightsFile(file!.bytes);
    expect(decoded.kind).toBe('tiny-lm-lora-adapter');
    expect(decoded.tensors.every((t) => /\.lora_[AB]$/.test(t.name))).toBe(true);
    expect(decoded.tensors.reduce((s, t) => s + t.values.length, 0)).toBe(lora.model.trainableParamCount());
    expect(summary).toMatch(/The adapter holds [\d,]+ parameters in [\d.]+ KB; the full checkpoint is [\d.]+ KB \(\d+%\)/);
    lora.dispose();
    const full = createSftTrainer(model, task, { eval_samples: 10 });
    expect((await full.actions!.export_adapter()).file).toBeUndefined();
    expect((await full.actions!.merge_check()).summary).toMatch(/no adapter to merge/);
    full.dispose();
    model.dispose();
  });
});
