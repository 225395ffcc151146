/** Checkpoint headers are untrusted: bounds and the tensor table are checked before a model is built. */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActorCritic } from '@/lib/models/actor-critic';
import { loadActorCritic, loadTinyLM } from '@/lib/models/checkpoint';
import { DEFAULT_LORA, type TinyLMConfig } from '@/lib/models/config';
import { actorCriticWeightShapes, tinyLMWeightShapes } from '@/lib/models/shapes';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { encodeWeightsFile } from '@/lib/models/weights-file';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const shapesOf = (weights: ReadonlyMap<string, tf.Variable>) => new Map([...weights].map(([name, v]) => [name, [...v.shape]]));

describe('weight shapes from a config, without allocating', () => {
  const configs: TinyLMConfig[] = [
    { vocab_size: 22, context_length: 22, d_model: 32, n_layers: 2, n_heads: 4 },
    { vocab_size: 9, context_length: 5, d_model: 8, n_layers: 1, n_heads: 2, d_ff: 12, value_head: true },
    { vocab_size: 9, context_length: 5, d_model: 8, n_layers: 3, n_heads: 2, lora: { ...DEFAULT_LORA, r: 2, target_modules: ['qkv', 'fc2', 'head'] } },
  ];
  it.each(configs)('match what createTinyLM builds: %j', (config) => {
    const model = createTinyLM(config, 0);
    expect(tinyLMWeightShapes(config)).toEqual(shapesOf(model.namedWeights()));
    model.dispose();
  });

  it('match what createActorCritic builds', () => {
    for (const config of [{ obs_dim: 25, n_actions: 4, hidden_sizes: [32, 32] }, { obs_dim: 4, n_actions: 2 }]) {
      const model = createActorCritic(config, 0);
      expect(actorCriticWeightShapes(config)).toEqual(shapesOf(model.namedWeights()));
      model.dispose();
    }
  });
});

/** A tiny file whose header claims `config` and holds the given (small) tensors: valid magic and CRC. */
const hostile = (kind: string, config: Record<string, unknown>, tensors: { name: string; shape: number[] }[] = []) =>
  encodeWeightsFile({ kind, config, state: {}, tensors: tensors.map((t) => ({ ...t, values: new Float32Array(t.shape.reduce((a, b) => a * b, 1)) })) });

describe('hostile checkpoint headers are refused before anything is allocated', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['the reviewer’s 204-byte file claiming d_model 1024 and 4 layers (50M parameters)', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 1024, n_layers: 4, n_heads: 4 }), /50454550 parameters; this site loads at most 20000000/],
    ['a model within bounds whose tensors are not in the file', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 256, n_layers: 4, n_heads: 4 }), /tensor 'tok_emb' that the config implies is missing/],
    ['a million dimensions', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 1_000_000, n_layers: 4, n_heads: 4 }), /d_model: .*4096/],
    ['too many layers', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 32, n_layers: 1000, n_heads: 4 }), /n_layers: .*24/],
    ['a fractional size', hostile('tiny-lm', { vocab_size: 22.5, context_length: 22, d_model: 32, n_layers: 1, n_heads: 4 }), /vocab_size: .*int/],
    ['a string where a size belongs', hostile('tiny-lm', { vocab_size: '22', context_length: 22, d_model: 32, n_layers: 1, n_heads: 4 }), /vocab_size/],
    ['an unknown config field', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 32, n_layers: 1, n_heads: 4, evil: true }), /evil/],
    ['LoRA of absurd rank', hostile('tiny-lm', { vocab_size: 22, context_length: 22, d_model: 32, n_layers: 1, n_heads: 4, lora: { ...DEFAULT_LORA, r: 1e6 } }), /lora\.r: .*256/],
    ['a __proto__ config', hostile('tiny-lm', JSON.parse('{"__proto__": {"d_model": 4}, "vocab_size": 22}')), /config is invalid/],
    ['within bounds but 4× over the parameter cap', hostile('tiny-lm', { vocab_size: 4096, context_length: 1024, d_model: 4096, n_layers: 24, n_heads: 4 }), /parameters; this site loads at most/],
    ['an actor-critic with a thousand hidden layers', hostile('actor-critic', { obs_dim: 4, n_actions: 2, hidden_sizes: new Array(1000).fill(64) }), /hidden_sizes/],
  ];
  it.each(cases)('%s', (_what, bytes, message) => {
    const before = { tensors: tf.memory().numTensors, bytes: tf.memory().numBytes };
    const started = performance.now();
    const load = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + new DataView(bytes.buffer).getUint32(8, true)))).kind === 'tiny-lm' ? loadTinyLM : loadActorCritic;
    expect(() => load(bytes)).toThrow(message);
    expect(performance.now() - started).toBeLessThan(200);
    expect({ tensors: tf.memory().numTensors, bytes: tf.memory().numBytes }).toEqual(before);
  });
});
