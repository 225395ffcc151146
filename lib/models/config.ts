/**
 * Configs of the tiny decoder-only LM and its LoRA adapters. Field names follow Hugging Face (GPT-2 / PEFT) so the
 * chapters' symbols and the code read the same: d_model, n_heads, r, lora_alpha…
 */

/**
 * Names of the linear layers LoRA can adapt (per transformer block, except 'head'): qkv, the fused query/key/value
 * projection d_model → 3·d_model; out, attention output d_model → d_model; fc1, MLP up d_model → d_ff; fc2, MLP down
 * d_ff → d_model; head, the LM head d_model → vocab_size (once, not per block).
 */
export const LORA_TARGETS = ['qkv', 'out', 'fc1', 'fc2', 'head'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

export interface LoraConfig {
  /** Rank of the update ΔW = B·A (here stored as A [in, r] · B [r, out]). */
  r: number;
  /** Scale numerator: ΔW is multiplied by lora_alpha / r (or / √r with use_rslora). */
  lora_alpha: number;
  /** Dropout on the adapter's input during training (0 = off; off also lets the fast merged-weight path run). */
  lora_dropout: number;
  /** Rank-stabilised LoRA (Kalajdzievski 2023): scale α/√r instead of α/r, so larger r still learns. */
  use_rslora: boolean;
  /** Which linear layers get adapters. */
  target_modules: LoraTarget[];
}

export const DEFAULT_LORA: LoraConfig = {
  r: 4,
  lora_alpha: 8, // α = 2r, the common PEFT default ratio
  lora_dropout: 0, // tiny models underfit; dropout would only slow learning
  use_rslora: false,
  target_modules: ['qkv', 'out', 'fc1', 'fc2'],
};

export interface TinyLMConfig {
  vocab_size: number;
  /** Maximum sequence length T (learned positional embeddings have this many rows). */
  context_length: number;
  d_model: number;
  n_layers: number;
  n_heads: number;
  /** MLP hidden width; default 4·d_model. */
  d_ff?: number;
  /** Adds a linear value head d_model → 1 at every position (PPO). */
  value_head?: boolean;
  /** When set, adapters are added and only they (and the value head) train. */
  lora?: LoraConfig | null;
  /**
   * Hugging Face's name (Mistral, Qwen2): each token attends to itself and the sliding_window − 1 tokens before it,
   * in every layer, in training, in both decoders and in evaluation alike. Stacked over n_layers, a logit depends on
   * the last n_layers·(sliding_window − 1) + 1 tokens only: older ones have left the window. null: full context.
   */
  sliding_window?: number | null;
}

/** The fields that fix the shapes of the base weights; a checkpoint must match them exactly. */
export const ARCH_FIELDS = ['vocab_size', 'context_length', 'd_model', 'n_layers', 'n_heads', 'd_ff'] as const;

/** Fills defaults and checks every field; throws naming the first bad one. */
export function resolveConfig(config: TinyLMConfig): Required<TinyLMConfig> {
  const c: Required<TinyLMConfig> = {
    ...config,
    d_ff: config.d_ff ?? 4 * config.d_model,
    value_head: config.value_head ?? false,
    lora: config.lora ?? null,
    sliding_window: config.sliding_window ?? null,
  };
  for (const f of ARCH_FIELDS) {
    if (!Number.isInteger(c[f]) || c[f] < 1) throw new Error(`TinyLMConfig.${f} must be a positive integer, got ${c[f]}`);
  }
  if (c.d_model % c.n_heads !== 0) {
    throw new Error(`TinyLMConfig.d_model (${c.d_model}) must be divisible by n_heads (${c.n_heads})`);
  }
  if (c.lora) validateLora(c.lora);
  if (c.sliding_window !== null && !(Number.isInteger(c.sliding_window) && c.sliding_window >= 1)) {
    throw new Error(`TinyLMConfig.sliding_window must be a positive integer or null, got ${c.sliding_window}`);
  }
  return c;
}

export function validateLora(l: LoraConfig): void {
  if (!Number.isInteger(l.r) || l.r < 1) throw new Error(`LoraConfig.r must be a positive integer, got ${l.r}`);
  if (!(l.lora_alpha > 0)) throw new Error(`LoraConfig.lora_alpha must be > 0, got ${l.lora_alpha}`);
  if (!(l.lora_dropout >= 0 && l.lora_dropout < 1)) throw new Error(`LoraConfig.lora_dropout must be in [0, 1)`);
  const bad = l.target_modules.filter((t) => !LORA_TARGETS.includes(t));
  if (bad.length > 0 || l.target_modules.length === 0) {
    throw new Error(`LoraConfig.target_modules must be a non-empty subset of ${LORA_TARGETS.join(', ')}; got ${l.target_modules.join(', ')}`);
  }
}

/** s in W' = W + s·A·B. */
export function loraScaling(l: LoraConfig): number {
  return l.use_rslora ? l.lora_alpha / Math.sqrt(l.r) : l.lora_alpha / l.r;
}

/** Shapes [in, out] of every LoRA-targetable linear layer. */
export function linearShapes(config: TinyLMConfig): Record<LoraTarget, [number, number]> {
  const c = resolveConfig(config);
  return {
    qkv: [c.d_model, 3 * c.d_model],
    out: [c.d_model, c.d_model],
    fc1: [c.d_model, c.d_ff],
    fc2: [c.d_ff, c.d_model],
    head: [c.d_model, c.vocab_size],
  };
}

/**
 * Base parameter count by hand:
 * V·D (token emb) + T·D (pos emb)
 * + L·[2D (LN1) + D·3D + 3D (qkv) + D·D + D (out) + 2D (LN2) + D·F + F (fc1) + F·D + D (fc2)]
 * + 2D (final LN) + D·V + V (head) [+ D + 1 (value head)].
 */
export function baseParamCount(config: TinyLMConfig): number {
  const { vocab_size: V, context_length: T, d_model: D, n_layers: L, d_ff: F, value_head } = resolveConfig(config);
  const block = 2 * D + (D * 3 * D + 3 * D) + (D * D + D) + 2 * D + (D * F + F) + (F * D + D);
  return V * D + T * D + L * block + 2 * D + D * V + V + (value_head ? D + 1 : 0);
}

/** LoRA parameter count: r·(in + out) per adapted layer ('head' once, the rest once per block). */
export function loraParamCount(config: TinyLMConfig): number {
  const c = resolveConfig(config);
  if (!c.lora) return 0;
  const shapes = linearShapes(c);
  return c.lora.target_modules.reduce((sum, t) => {
    const [i, o] = shapes[t];
    return sum + (t === 'head' ? 1 : c.n_layers) * c.lora!.r * (i + o);
  }, 0);
}

/** Whether two LoRA configs (or their absence) are the same, regardless of key order. */
export function sameLora(a: LoraConfig | null | undefined, b: LoraConfig | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return (
    a.r === b.r &&
    a.lora_alpha === b.lora_alpha &&
    a.lora_dropout === b.lora_dropout &&
    a.use_rslora === b.use_rslora &&
    [...a.target_modules].sort().join() === [...b.target_modules].sort().join()
  );
}

/** How far back a logit can see under a sliding window: the last n_layers·(sliding_window − 1) + 1 tokens; Infinity without one. */
export function receptiveField(config: TinyLMConfig): number {
  const c = resolveConfig(config);
  return c.sliding_window === null ? Infinity : c.n_layers * (c.sliding_window - 1) + 1;
}

/** Whether key position `key` is visible to query position `query`: causal, and within the sliding window if any. */
export function attends(query: number, key: number, slidingWindow: number | null): boolean {
  return key <= query && (slidingWindow === null || query - key < slidingWindow);
}
