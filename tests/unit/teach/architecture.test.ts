import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tinyLMWeightShapes } from '@/lib/models/shapes';
import { decodeWeightsFile, encodeWeightsFile } from '@/lib/models/weights-file';
import { architectureProblem } from '@/lib/teach/architecture';
import { presetSettings } from '@/lib/train/config';
import { trainerSettings, type TrainerName } from '@/lib/spec/registry';
import { actorCriticWeights, SFT_WEIGHTS } from './fixtures';

const AGENT_WEIGHTS = new Uint8Array(fs.readFileSync('public/models/agent-sft.arlw'));
const MULTISTEP_WEIGHTS = new Uint8Array(fs.readFileSync('public/models/agent-multistep-sft.arlw'));
const config = (trainer: TrainerName, preset = 'default') => {
  const { schema, presets } = trainerSettings(trainer);
  return presetSettings(schema, presets[preset]);
};
const problem = (trainer: TrainerName, bytes: Uint8Array, settings = config(trainer)) => architectureProblem(trainer, settings, decodeWeightsFile(bytes));

/** The lab model with LoRA adapters of rank r, zeros: what the LoRA lab's run saves. */
function loraWeights(r: number): Uint8Array {
  const header = decodeWeightsFile(SFT_WEIGHTS).config;
  const lora = { r, lora_alpha: 8, lora_dropout: 0, use_rslora: false, target_modules: ['qkv', 'out', 'fc1', 'fc2'] as const };
  const modelConfig = { ...header, lora: { ...lora, target_modules: [...lora.target_modules] } } as Parameters<typeof tinyLMWeightShapes>[0];
  const tensors = [...tinyLMWeightShapes(modelConfig)].map(([name, shape]) => ({ name, shape, values: new Float32Array(shape.reduce((a, b) => a * b, 1)) }));
  return encodeWeightsFile({ kind: 'tiny-lm', config: modelConfig as unknown as Record<string, unknown>, state: { lora_merged: false }, tensors });
}

describe('architectureProblem', async () => {
  it('accepts each lab’s own model', async () => {
    for (const trainer of ['grpo', 'dpo', 'sft'] as const) expect(await problem(trainer, SFT_WEIGHTS), trainer).toBeNull();
    expect(await problem('agent', AGENT_WEIGHTS)).toBeNull();
    expect(await problem('agent', MULTISTEP_WEIGHTS, config('agent', 'multi_step'))).toBeNull();
    expect(await problem('ppo', actorCriticWeights())).toBeNull();
    expect(await problem('sft', loraWeights(4), config('sft', 'lora_r4'))).toBeNull();
  });

  it('checks an agent run against the model of its own task and tries (memory: a sliding window; reflect: room for a second try)', async () => {
    const memory = new Uint8Array(fs.readFileSync('public/models/agent-memory-sft.arlw'));
    const reflect = new Uint8Array(fs.readFileSync('public/models/agent-reflect-sft.arlw'));
    expect(await problem('agent', memory, config('agent', 'memory'))).toBeNull();
    expect(await problem('agent', reflect, config('agent', 'reflect'))).toBeNull();
    // Each is refused under the other presets: the product task's model is another shape.
    expect(await problem('agent', memory)).not.toBeNull();
    expect(await problem('agent', reflect)).not.toBeNull();
    expect(await problem('agent', AGENT_WEIGHTS, config('agent', 'reflect'))).toMatch(/context_length/);
  });

  it('names what does not fit', async () => {
    expect(await problem('agent', SFT_WEIGHTS)).toMatch(/^vocab_size is \d+ in the weights but \d+ in the lab's model$/);
    expect(await problem('agent', AGENT_WEIGHTS, config('agent', 'retry'))).toMatch(/^context_length is 33 in the weights but 60 in the lab's model$/);
    expect(await problem('agent', MULTISTEP_WEIGHTS)).toMatch(/^context_length is 60 in the weights but 33 in the lab's model$/);
    expect(await problem('grpo', actorCriticWeights())).toBe("the weights are a 'actor-critic' model; grpo trains a 'tiny-lm'");
    expect(await problem('ppo', SFT_WEIGHTS)).toBe("the weights are a 'tiny-lm' model; ppo trains an 'actor-critic'");
    expect(await problem('ppo', actorCriticWeights(), { ...config('ppo'), env_id: 'cartpole' })).toBe('obs_dim is 25 in the weights but 4 for this config');
    expect(await problem('ppo', actorCriticWeights(), { ...config('ppo'), hidden_size: 64 })).toBe('hidden is 32,32 in the weights but 64,64 for this config');
    expect(await problem('sft', SFT_WEIGHTS, config('sft', 'lora_r4'))).toBe('the config trains LoRA rank 4, the weights hold no adapters');
    expect(await problem('sft', loraWeights(16), config('sft', 'lora_r4'))).toBe('the config trains LoRA rank 4, the weights hold rank 16');
    expect(await problem('grpo', loraWeights(4))).toBe('the weights hold LoRA adapters, which this config does not train');
  });

  it('refuses a header whose tensors do not match its config, before allocating anything', async () => {
    const file = decodeWeightsFile(SFT_WEIGHTS);
    const forged = { ...file, config: { ...file.config, d_model: 4096, n_layers: 24 } };
    expect(await architectureProblem('grpo', config('grpo'), forged)).toMatch(/parameters|shape|missing/);
  });
});
