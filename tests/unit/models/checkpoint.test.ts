import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActorCritic } from '@/lib/models/actor-critic';
import { loadActorCritic, loadTinyLM, loadTinyLMWeights, loadVisionLM, saveTinyLM, saveWeights } from '@/lib/models/checkpoint';
import { DEFAULT_LORA, type TinyLMConfig } from '@/lib/models/config';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createVisionLM, type VisionLM, type VisionLMConfig } from '@/lib/models/vision-lm';
import { crc32, decodeWeightsFile, encodeWeightsFile, type WeightsFile } from '@/lib/models/weights-file';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const cfg: TinyLMConfig = { vocab_size: 9, context_length: 6, d_model: 8, n_layers: 1, n_heads: 2 };
const made: { dispose(): void }[] = [];
const keep = <T extends { dispose(): void }>(m: T) => (made.push(m), m);
afterEach(() => made.splice(0).forEach((m) => m.dispose()));

const logits = (m: TinyLM) =>
  tf.tidy(() => m.forward(tf.tensor2d([[1, 2, 3, 4]], [1, 4], 'int32')).logits.arraySync());

/** Re-seals a file after editing its bytes, so that only the intended defect remains. */
function reseal(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, crc32(bytes, 16), true);
  return bytes;
}

async function saved(c: TinyLMConfig = cfg): Promise<{ model: TinyLM; bytes: Uint8Array; file: WeightsFile }> {
  const model = keep(createTinyLM(c, 4));
  const bytes = await saveTinyLM(model);
  return { model, bytes, file: decodeWeightsFile(bytes) };
}

describe('save → load', () => {
  it('round-trips to identical logits', async () => {
    const { model, bytes } = await saved();
    expect(Array.from(bytes.subarray(0, 4), (b) => String.fromCharCode(b)).join('')).toBe('ARLW');
    const loaded = keep(loadTinyLM(bytes));
    expect(loaded.config).toEqual(model.config);
    expect(logits(loaded)).toEqual(logits(model));
  });

  it('round-trips LoRA, value head and merged state', async () => {
    const model = keep(createTinyLM({ ...cfg, value_head: true, lora: { ...DEFAULT_LORA, r: 2 } }, 4));
    model.namedWeights().forEach((v, n) => n.endsWith('lora_B') && tf.tidy(() => v.assign(tf.onesLike(v).mul(0.1))));
    model.mergeLora();
    const loaded = keep(loadTinyLM(await saveTinyLM(model)));
    expect(loaded.loraMerged).toBe(true);
    expect(logits(loaded)).toEqual(logits(model));
    loaded.unmergeLora();
    model.unmergeLora();
    expect(logits(loaded)).toEqual(logits(model));
  });

  it('loads into an existing model of the same config', async () => {
    const { model, bytes } = await saved();
    const other = keep(createTinyLM(cfg, 99));
    expect(logits(other)).not.toEqual(logits(model));
    loadTinyLMWeights(other, bytes);
    expect(logits(other)).toEqual(logits(model));
  });

  it('round-trips an actor-critic', async () => {
    const ac = keep(createActorCritic({ obs_dim: 4, n_actions: 2, hidden_sizes: [8] }, 1));
    const back = keep(loadActorCritic(await saveWeights(ac)));
    const obs = tf.tensor2d([[0.1, -0.2, 0.3, 0.4]]);
    const run = (m: typeof ac) => tf.tidy(() => m.forward(obs).logits.arraySync());
    expect(run(back)).toEqual(run(ac));
    obs.dispose();
  });
});

describe('corrupt or wrong files are refused with a clear message', () => {
  it('bad magic', async () => {
    const { bytes } = await saved();
    bytes[0] = 'X'.charCodeAt(0);
    expect(() => loadTinyLM(bytes)).toThrow(/bad magic bytes "XRLW"/);
    expect(() => loadTinyLM(new TextEncoder().encode('{"not":"weights"} padding padding'))).toThrow(/bad magic/);
  });

  it('wrong format version', async () => {
    const { file } = await saved();
    expect(() => loadTinyLM(encodeWeightsFile(file, { version: 2 }))).toThrow(/unsupported format version 2 \(this build reads version 1\)/);
  });

  it('truncated: preamble, header, data', async () => {
    const { bytes } = await saved();
    expect(() => loadTinyLM(bytes.slice(0, 10))).toThrow(/truncated: 10 bytes/);
    expect(() => loadTinyLM(bytes.slice(0, 40))).toThrow(/truncated: the header needs/);
    expect(() => loadTinyLM(bytes.slice(0, bytes.length - 4))).toThrow(new RegExp(`truncated: expected ${bytes.length} bytes, got ${bytes.length - 4}`));
  });

  it('flipped data bits fail the checksum', async () => {
    const { bytes } = await saved();
    bytes[bytes.length - 3] ^= 0x40;
    expect(() => loadTinyLM(bytes)).toThrow(/checksum mismatch/);
  });

  it('a header that is not JSON', async () => {
    const { bytes } = await saved();
    bytes[16] = '!'.charCodeAt(0);
    expect(() => loadTinyLM(reseal(bytes))).toThrow(/header is not valid UTF-8 JSON/);
  });

  it("a header config that doesn't match the model", async () => {
    const { bytes } = await saved();
    const wider = keep(createTinyLM({ ...cfg, d_model: 16 }, 1));
    expect(() => loadTinyLMWeights(wider, bytes)).toThrow(/config mismatch: d_model is 8 in the file but 16 in the model/);
    const withValue = keep(createTinyLM({ ...cfg, value_head: true }, 1));
    expect(() => loadTinyLMWeights(withValue, bytes)).toThrow(/config mismatch: value_head is false/);
  });

  it('an invalid config in the header', async () => {
    const { file } = await saved();
    expect(() => loadTinyLM(encodeWeightsFile({ ...file, config: { ...file.config, n_heads: 3 } }))).toThrow(/header's config is invalid: .*divisible by n_heads/);
  });

  it('a tensor shape that does not match', async () => {
    const { file } = await saved();
    const tensors = file.tensors.map((t) => (t.name === 'head.b' ? { ...t, shape: [3, 3] } : t));
    expect(() => loadTinyLM(encodeWeightsFile({ ...file, tensors }))).toThrow(/tensor 'head.b' has shape \[3,3\] in the file but the config implies \[9\]/);
  });

  it('a missing or an extra tensor', async () => {
    const { file } = await saved();
    const missing = file.tensors.filter((t) => t.name !== 'pos_emb');
    expect(() => loadTinyLM(encodeWeightsFile({ ...file, tensors: missing }))).toThrow(/tensor 'pos_emb' that the config implies is missing/);
    const extra = [...file.tensors, { name: 'bonus', shape: [1], values: new Float32Array([1]) }];
    expect(() => loadTinyLM(encodeWeightsFile({ ...file, tensors: extra }))).toThrow(/tensor 'bonus' that the config does not imply/);
  });

  it('NaN or infinite weights', async () => {
    const { file } = await saved();
    const tensors = file.tensors.map((t) => (t.name === 'tok_emb' ? { ...t, values: t.values.map((v, i) => (i === 5 ? NaN : v)) } : t));
    expect(() => loadTinyLM(encodeWeightsFile({ ...file, tensors }))).toThrow(/tensor 'tok_emb' holds a non-finite value \(NaN\) at index 5/);
  });

  it('another kind of model', async () => {
    const ac = keep(createActorCritic({ obs_dim: 2, n_actions: 2, hidden_sizes: [4] }, 1));
    const bytes = await saveWeights(ac);
    expect(() => loadTinyLM(bytes)).toThrow(/holds a 'actor-critic' model, not a 'tiny-lm'/);
  });

  it('a refused file leaves the target model unchanged', async () => {
    const { file } = await saved();
    const target = keep(createTinyLM(cfg, 2));
    const before = logits(target);
    const bad = file.tensors.map((t) => (t.name === 'head.b' ? { ...t, shape: [9, 1] } : t));
    expect(() => loadTinyLMWeights(target, encodeWeightsFile({ ...file, tensors: bad }))).toThrow(/shape/);
    expect(logits(target)).toEqual(before);
  });
});

describe('vision LM checkpoints (loadVisionLM)', () => {
  const visionCfg: VisionLMConfig = { lm: { vocab_size: 9, context_length: 10, d_model: 8, n_layers: 1, n_heads: 2 }, encoder: { patch_size: 2, num_channels: 3, patch_grid: 2, d_model: 8 } };
  const picture = () => tf.tensor3d(Array.from({ length: 4 * 12 }, (_, i) => ((i * 7) % 11) / 11), [1, 4, 12]);
  const visionLogits = (m: VisionLM) => tf.tidy(() => m.forward(tf.tensor2d([[1, 2, 3]], [1, 3], 'int32'), picture()).logits.arraySync());

  it('round-trips a vision LM (encoder and LM) to identical logits', async () => {
    const model = keep(createVisionLM(visionCfg, 3));
    const bytes = await saveWeights(model);
    const loaded = keep(loadVisionLM(bytes));
    expect(loaded.config.encoder).toEqual(model.config.encoder);
    expect(visionLogits(loaded)).toEqual(visionLogits(model));
  });

  it('refuses another kind, a header beyond the site’s limits before allocating, and a table that does not fit', async () => {
    await expect(saved().then(({ bytes }) => loadVisionLM(bytes))).rejects.toThrow(/holds a 'tiny-lm' model, not a 'vision-lm'/);
    const file = decodeWeightsFile(await saveWeights(keep(createVisionLM(visionCfg, 3))));
    const before = tf.memory().numTensors;
    const huge = { ...file, config: { ...file.config, lm: { ...visionCfg.lm, d_model: 4096, n_layers: 24 }, encoder: { ...visionCfg.encoder, d_model: 4096 } } };
    expect(() => loadVisionLM(encodeWeightsFile(huge))).toThrow(/header's config is invalid: the config describes \d+ parameters/);
    expect(tf.memory().numTensors).toBe(before); // nothing was built
    const narrow = { ...file, config: { ...file.config, encoder: { ...visionCfg.encoder, d_model: 16 } } };
    expect(() => loadVisionLM(encodeWeightsFile(narrow))).toThrow(/encoder.d_model \(16\) must equal lm.d_model \(8\)/);
    const missing = { ...file, tensors: file.tensors.filter((t) => t.name !== 'image.pos') };
    expect(() => loadVisionLM(encodeWeightsFile(missing))).toThrow(/tensor 'image.pos' that the config implies is missing/);
    expect(tf.memory().numTensors).toBe(before);
  });
});
