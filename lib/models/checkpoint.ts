import * as tf from '@tensorflow/tfjs';
import { createActorCritic, type ActorCritic } from './actor-critic';
import { ARCH_FIELDS, resolveConfig, sameLora, type TinyLMConfig } from './config';
import { checkActorCriticHeader, checkTinyLMHeader, checkVisionLMHeader } from './shapes';
import { createTinyLM, type TinyLM } from './tiny-lm';
import { createVisionLM, type VisionLM } from './vision-lm';
import { decodeWeightsFile, encodeWeightsFile, WeightsFileError, type WeightsFile } from './weights-file';

/** What save/load needs from a model (TinyLM and ActorCritic both have it). */
export interface Checkpointable {
  readonly kind: string;
  readonly config: object;
  namedWeights(): ReadonlyMap<string, tf.Variable>;
}

/** Serialises every weight (one `await data()` per tensor) with the model's config and state. */
export async function saveWeights(model: Checkpointable, state: Record<string, unknown> = {}, config: object = model.config): Promise<Uint8Array> {
  const tensors = [];
  for (const [name, v] of model.namedWeights()) {
    tensors.push({ name, shape: [...v.shape], values: (await v.data()) as Float32Array });
  }
  return encodeWeightsFile({ kind: model.kind, config: { ...config }, state, tensors });
}

/** Copies a decoded file's tensors into the model; names and shapes must match exactly. */
export function assignWeights(model: Checkpointable, file: WeightsFile): void {
  if (file.kind !== model.kind) throw new WeightsFileError(`the file holds a '${file.kind}' model, not a '${model.kind}'`);
  const weights = model.namedWeights();
  const inFile = new Map(file.tensors.map((t) => [t.name, t]));
  for (const [name, v] of weights) {
    const t = inFile.get(name);
    if (!t) throw new WeightsFileError(`tensor '${name}' is missing from the file`);
    if (t.shape.length !== v.shape.length || t.shape.some((d, i) => d !== v.shape[i])) {
      throw new WeightsFileError(`tensor '${name}' has shape [${t.shape}] in the file but [${v.shape}] in the model`);
    }
  }
  const extra = file.tensors.find((t) => !weights.has(t.name));
  if (extra) throw new WeightsFileError(`the file has a tensor '${extra.name}' that the model does not`);
  // All checks pass before any weight changes, so a refused file leaves the model untouched.
  for (const [name, v] of weights) {
    const t = inFile.get(name)!;
    tf.tidy(() => v.assign(tf.tensor(t.values, t.shape, 'float32')));
  }
}

export async function saveTinyLM(model: TinyLM): Promise<Uint8Array> {
  // A model without a sliding window is saved as before the field existed, byte for byte.
  const { sliding_window, ...rest } = model.config;
  return saveWeights(model, { lora_merged: model.loraMerged }, sliding_window === null ? rest : model.config);
}

/** Rebuilds a TinyLM from a file (config from its header). */
export function loadTinyLM(bytes: Uint8Array, opts: { frozen?: boolean } = {}): TinyLM {
  const file = decodeWeightsFile(bytes);
  if (file.kind !== 'tiny-lm') throw new WeightsFileError(`the file holds a '${file.kind}' model, not a 'tiny-lm'`);
  let config: Required<TinyLMConfig>;
  try {
    config = resolveConfig(checkTinyLMHeader(file.config, file.tensors)); // bounds and shapes, before allocating
  } catch (e) {
    throw new WeightsFileError(`the header's config is invalid: ${(e as Error).message}`);
  }
  const model = createTinyLM(config, 1, opts);
  try {
    assignWeights(model, file);
    if (file.state.lora_merged === true) model.setLoraMerged(true);
  } catch (e) {
    model.dispose();
    throw e;
  }
  return model;
}

/** Loads a file into an existing model, refusing one whose config differs (architecture, value head, LoRA). */
export function loadTinyLMWeights(model: TinyLM, bytes: Uint8Array): void {
  const file = decodeWeightsFile(bytes);
  const theirs = file.config as Partial<Required<TinyLMConfig>>;
  for (const f of [...ARCH_FIELDS, 'value_head'] as const) {
    if (theirs[f] !== model.config[f]) {
      throw new WeightsFileError(`config mismatch: ${f} is ${JSON.stringify(theirs[f])} in the file but ${JSON.stringify(model.config[f])} in the model`);
    }
  }
  if ((theirs.sliding_window ?? null) !== model.config.sliding_window) {
    throw new WeightsFileError(`config mismatch: sliding_window is ${JSON.stringify(theirs.sliding_window ?? null)} in the file but ${JSON.stringify(model.config.sliding_window)} in the model`);
  }
  if (!sameLora(theirs.lora, model.config.lora)) {
    throw new WeightsFileError(`config mismatch: lora is ${JSON.stringify(theirs.lora ?? null)} in the file but ${JSON.stringify(model.config.lora)} in the model`);
  }
  assignWeights(model, file);
  model.setLoraMerged(file.state.lora_merged === true && model.config.lora != null);
}

/** Rebuilds an ActorCritic from a file written by `saveWeights(actorCritic)`. */
export function loadActorCritic(bytes: Uint8Array, opts: { frozen?: boolean } = {}): ActorCritic {
  return loadChecked(bytes, 'an', 'actor-critic', (file) => createActorCritic(checkActorCriticHeader(file.config, file.tensors), 1, opts));
}

/**
 * Rebuilds a VisionLM (patch encoder and its TinyLM) from a file written by `saveWeights(visionLM)`: a saved vision
 * run or the vision lab's shipped SFT checkpoint. The header is read as untrusted input (bounds, the encoder as wide as
 * the LM, the tensor table) before anything is allocated, as loadTinyLM does.
 */
export function loadVisionLM(bytes: Uint8Array, opts: { frozen?: boolean } = {}): VisionLM {
  return loadChecked(bytes, 'a', 'vision-lm', (file) => createVisionLM(checkVisionLMHeader(file.config, file.tensors), 0, opts));
}

/**
 * A model of one kind from untrusted bytes: `build` checks the header and allocates the model (a bad header is the
 * file's fault, reported as such), then the weights are filled in; a file whose tensors do not fit frees the model.
 */
function loadChecked<M extends Checkpointable & { dispose(): void }>(bytes: Uint8Array, article: 'a' | 'an', kind: WeightsFile['kind'], build: (file: WeightsFile) => M): M {
  const file = decodeWeightsFile(bytes);
  if (file.kind !== kind) throw new WeightsFileError(`the file holds a '${file.kind}' model, not ${article} '${kind}'`);
  let model: M;
  try {
    model = build(file);
  } catch (e) {
    throw new WeightsFileError(`the header's config is invalid: ${(e as Error).message}`);
  }
  try {
    assignWeights(model, file);
  } catch (e) {
    model.dispose();
    throw e;
  }
  return model;
}
