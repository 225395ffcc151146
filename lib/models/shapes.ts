/**
 * The weights a config stands for, by name and shape, computed without allocating anything. Loading a checkpoint
 * compares its tensor table with these before building the model, so a hostile or mistaken header (a config
 * claiming a huge model, tensors that do not match it) is refused before any memory is spent. Tests check that
 * these match what createTinyLM and createActorCritic really build.
 */
import { z } from 'zod';
import type { ActorCriticConfig } from './actor-critic';
import { LORA_TARGETS, linearShapes, resolveConfig, type TinyLMConfig } from './config';
import type { ImageEncoderConfig } from './image-encoder';
import type { VisionLMConfig } from './vision-lm';

/** The largest models the site builds: far above the labs' (27.6k parameters), far below what would hurt a browser. */
export const MODEL_LIMITS = { maxParams: 20_000_000, maxDim: 4096, maxLayers: 24, maxContext: 1024, maxVocab: 4096 } as const;

export type WeightShapes = Map<string, number[]>;

export function tinyLMWeightShapes(config: TinyLMConfig): WeightShapes {
  const c = resolveConfig(config);
  const shapes: WeightShapes = new Map();
  const linear = (name: string, [inDim, outDim]: [number, number], adapted: boolean) => {
    shapes.set(`${name}.W`, [inDim, outDim]);
    shapes.set(`${name}.b`, [outDim]);
    if (adapted && c.lora) {
      shapes.set(`${name}.lora_A`, [inDim, c.lora.r]);
      shapes.set(`${name}.lora_B`, [c.lora.r, outDim]);
    }
  };
  const adapted = (t: string) => c.lora?.target_modules.includes(t as never) ?? false;
  const dims = linearShapes(c);
  shapes.set('tok_emb', [c.vocab_size, c.d_model]);
  shapes.set('pos_emb', [c.context_length, c.d_model]);
  for (let l = 0; l < c.n_layers; l++) {
    const n = `blocks.${l}`;
    shapes.set(`${n}.ln1.g`, [c.d_model]);
    shapes.set(`${n}.ln1.b`, [c.d_model]);
    for (const t of ['qkv', 'out'] as const) linear(`${n}.${t}`, dims[t], adapted(t));
    shapes.set(`${n}.ln2.g`, [c.d_model]);
    shapes.set(`${n}.ln2.b`, [c.d_model]);
    for (const t of ['fc1', 'fc2'] as const) linear(`${n}.${t}`, dims[t], adapted(t));
  }
  shapes.set('ln_f.g', [c.d_model]);
  shapes.set('ln_f.b', [c.d_model]);
  linear('head', dims.head, adapted('head'));
  if (c.value_head) {
    shapes.set('value_head.W', [c.d_model, 1]);
    shapes.set('value_head.b', [1]);
  }
  return shapes;
}

export function actorCriticWeightShapes(config: ActorCriticConfig): WeightShapes {
  const hidden = config.hidden_sizes ?? [64, 64];
  const dims = [config.obs_dim, ...hidden];
  const shapes: WeightShapes = new Map();
  const layer = (name: string, inDim: number, outDim: number) => {
    shapes.set(`${name}.W`, [inDim, outDim]);
    shapes.set(`${name}.b`, [outDim]);
  };
  hidden.forEach((h, i) => layer(`trunk.${i}`, dims[i], h));
  layer('policy', dims[dims.length - 1], config.n_actions);
  layer('value', dims[dims.length - 1], 1);
  return shapes;
}

/** The patch encoder's weights (image-encoder.ts): its projection and one position embedding per patch. */
export function imageEncoderWeightShapes(config: ImageEncoderConfig): WeightShapes {
  const patchDim = config.patch_size * config.patch_size * config.num_channels;
  const P = config.patch_grid * config.patch_grid;
  return new Map([
    ['image.proj.W', [patchDim, config.d_model]],
    ['image.proj.b', [config.d_model]],
    ['image.pos', [P, config.d_model]],
  ]);
}

/** A vision LM's weights in checkpoint order: the encoder's ('image.…'), then its TinyLM's. */
export function visionLMWeightShapes(config: VisionLMConfig): WeightShapes {
  return new Map([...imageEncoderWeightShapes(config.encoder), ...tinyLMWeightShapes(config.lm)]);
}

const count = (shapes: WeightShapes) => [...shapes.values()].reduce((s, shape) => s + shape.reduce((a, b) => a * b, 1), 0);

const dim = (max: number) => z.number().int().min(1).max(max);
const loraHeader = z
  .object({
    r: dim(256),
    lora_alpha: z.number().positive().max(1e4),
    lora_dropout: z.number().min(0).lt(1),
    use_rslora: z.boolean(),
    target_modules: z.array(z.enum(LORA_TARGETS)).min(1).max(LORA_TARGETS.length),
  })
  .strict();
const tinyLMHeader = z
  .object({
    vocab_size: dim(MODEL_LIMITS.maxVocab),
    context_length: dim(MODEL_LIMITS.maxContext),
    d_model: dim(MODEL_LIMITS.maxDim),
    n_layers: dim(MODEL_LIMITS.maxLayers),
    n_heads: dim(MODEL_LIMITS.maxDim),
    d_ff: dim(MODEL_LIMITS.maxDim * 4).optional(),
    value_head: z.boolean().optional(),
    lora: loraHeader.nullable().optional(),
    sliding_window: dim(MODEL_LIMITS.maxContext).nullable().optional(),
  })
  .strict();
const actorCriticHeader = z
  .object({
    obs_dim: dim(MODEL_LIMITS.maxDim),
    n_actions: dim(MODEL_LIMITS.maxDim),
    hidden_sizes: z.array(dim(MODEL_LIMITS.maxDim)).max(MODEL_LIMITS.maxLayers).optional(),
    activation: z.enum(['tanh', 'relu']).optional(),
  })
  .strict();

const imageEncoderHeader = z
  .object({ patch_size: dim(64), num_channels: dim(4), patch_grid: dim(64), d_model: dim(MODEL_LIMITS.maxDim) })
  .strict();
const visionLMHeader = z.object({ lm: tinyLMHeader, encoder: imageEncoderHeader }).strict();

/** The first problem zod found, as "field: what is wrong". */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.length > 0 ? issue.path.join('.') : 'config'}: ${issue.message}`;
}

/**
 * Reads a checkpoint header's config and tensor table as untrusted input: every field bounded, then the table
 * compared with the weights the config implies, all before anything is allocated. Throws naming the first problem.
 */
export function checkTinyLMHeader(config: unknown, table: { name: string; shape: number[] }[]): TinyLMConfig {
  const parsed = tinyLMHeader.safeParse(config);
  if (!parsed.success) throw new Error(firstIssue(parsed.error));
  checkTable(tinyLMWeightShapes(parsed.data), table);
  return parsed.data;
}

export function checkActorCriticHeader(config: unknown, table: { name: string; shape: number[] }[]): ActorCriticConfig {
  const parsed = actorCriticHeader.safeParse(config);
  if (!parsed.success) throw new Error(firstIssue(parsed.error));
  checkTable(actorCriticWeightShapes(parsed.data), table);
  return parsed.data;
}

/** As checkTinyLMHeader, for a vision LM: both parts bounded, the encoder as wide as the LM, the whole table checked. */
export function checkVisionLMHeader(config: unknown, table: { name: string; shape: number[] }[]): VisionLMConfig {
  const parsed = visionLMHeader.safeParse(config);
  if (!parsed.success) throw new Error(firstIssue(parsed.error));
  const { lm, encoder } = parsed.data;
  if (encoder.d_model !== lm.d_model) throw new Error(`encoder.d_model (${encoder.d_model}) must equal lm.d_model (${lm.d_model})`);
  checkTable(visionLMWeightShapes(parsed.data), table);
  return parsed.data;
}

function checkTable(expected: WeightShapes, table: { name: string; shape: number[] }[]): void {
  const params = count(expected);
  if (params > MODEL_LIMITS.maxParams) throw new Error(`the config describes ${params} parameters; this site loads at most ${MODEL_LIMITS.maxParams}`);
  const inFile = new Map(table.map((t) => [t.name, t.shape]));
  for (const [name, shape] of expected) {
    const found = inFile.get(name);
    if (!found) throw new Error(`tensor '${name}' that the config implies is missing from the file`);
    if (found.length !== shape.length || found.some((d, i) => d !== shape[i])) throw new Error(`tensor '${name}' has shape [${found}] in the file but the config implies [${shape}]`);
  }
  const extra = table.find((t) => !expected.has(t.name));
  if (extra) throw new Error(`the file has a tensor '${extra.name}' that the config does not imply`);
}
