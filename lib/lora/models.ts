// Real decoder-only architectures, as their config.json files on the Hugging Face Hub give them.
// Only shapes live here: what a LoRA adapter costs depends on nothing else.

export interface ModelPreset {
  id: string;
  name: string;
  /** num_hidden_layers */
  layers: number;
  /** hidden_size */
  hidden: number;
  /** intermediate_size (the SwiGLU MLP's inner width) */
  intermediate: number;
  /** num_attention_heads */
  heads: number;
  /** num_key_value_heads (grouped-query attention when < heads) */
  kvHeads: number;
  /** head_dim: Qwen3 sets it explicitly (128), so q_proj need not be square. */
  headDim: number;
  /** vocab_size */
  vocab: number;
  /** tie_word_embeddings: lm_head reuses the embedding matrix, so it is counted once. */
  tiedEmbeddings: boolean;
  /** Qwen3 normalises queries and keys per head (q_norm, k_norm: head_dim weights each). */
  qkNorm: boolean;
  /** Where the numbers above come from. */
  configUrl: string;
  /** The model card's own count, in billions, as printed there; tests check the shape-computed count against it. */
  published: { total: string; nonEmbedding?: string; url: string };
}

// Both families: no biases in attention or MLP (attention_bias false, mlp_bias false), RMSNorm with a weight only.
export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'qwen3-0.6b',
    name: 'Qwen3-0.6B',
    layers: 28,
    hidden: 1024,
    intermediate: 3072,
    heads: 16,
    kvHeads: 8,
    headDim: 128, // 16 heads × 128 = 2048 ≠ hidden 1024: q_proj is 1024 → 2048
    vocab: 151936,
    tiedEmbeddings: true,
    qkNorm: true,
    configUrl: 'https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/config.json',
    published: { total: '0.6', nonEmbedding: '0.44', url: 'https://huggingface.co/Qwen/Qwen3-0.6B' },
  },
  {
    id: 'qwen3-8b',
    name: 'Qwen3-8B',
    layers: 36,
    hidden: 4096,
    intermediate: 12288,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    vocab: 151936,
    tiedEmbeddings: false,
    qkNorm: true,
    configUrl: 'https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json',
    published: { total: '8.2', nonEmbedding: '6.95', url: 'https://huggingface.co/Qwen/Qwen3-8B' },
  },
  {
    id: 'llama-3.1-8b',
    name: 'Llama-3.1-8B',
    layers: 32,
    hidden: 4096,
    intermediate: 14336,
    heads: 32,
    kvHeads: 8,
    headDim: 128, // = hidden / heads, as Llama derives it
    vocab: 128256,
    tiedEmbeddings: false,
    qkNorm: false,
    configUrl: 'https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json',
    published: { total: '8', url: 'https://huggingface.co/meta-llama/Llama-3.1-8B' },
  },
];

export function findModel(id: string): ModelPreset {
  const model = MODEL_PRESETS.find((m) => m.id === id);
  if (!model) throw new Error(`Unknown model "${id}"; choose one of ${MODEL_PRESETS.map((m) => m.id).join(', ')}.`);
  return model;
}

/** The projections PEFT can target in these models, by their module names in transformers. */
export const LORA_MODULES = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] as const;
export type LoraModule = (typeof LORA_MODULES)[number];
export const ATTENTION_MODULES: readonly LoraModule[] = ['q_proj', 'k_proj', 'v_proj', 'o_proj'];
/** PEFT's target_modules="all-linear" on these models: every projection in the blocks, lm_head excluded. */
export const ALL_LINEAR_MODULES: readonly LoraModule[] = LORA_MODULES;

export interface Shape {
  dIn: number;
  dOut: number;
}

/** nn.Linear(in_features, out_features) of each projection in one decoder block. */
export function moduleShapes(m: ModelPreset): Record<LoraModule, Shape> {
  const q = m.heads * m.headDim;
  const kv = m.kvHeads * m.headDim;
  return {
    q_proj: { dIn: m.hidden, dOut: q },
    k_proj: { dIn: m.hidden, dOut: kv },
    v_proj: { dIn: m.hidden, dOut: kv },
    o_proj: { dIn: q, dOut: m.hidden },
    gate_proj: { dIn: m.hidden, dOut: m.intermediate },
    up_proj: { dIn: m.hidden, dOut: m.intermediate },
    down_proj: { dIn: m.intermediate, dOut: m.hidden },
  };
}

export interface ParamCount {
  /** All nn.Linear weights inside the decoder blocks (what 4-bit quantisation replaces). */
  blockLinear: number;
  /** RMSNorm weights: two per block, q_norm/k_norm where present, and the final norm. */
  norms: number;
  /** embed_tokens: vocab × hidden. */
  embedding: number;
  /** lm_head: vocab × hidden, or 0 when tied to the embedding. */
  lmHead: number;
  total: number;
  /** total − embedding − lm_head, as the Qwen3 model cards count it. */
  nonEmbedding: number;
}

/** Parameters computed from the shapes alone; tied embeddings are counted once, as PyTorch's parameters() does. */
export function modelParams(m: ModelPreset): ParamCount {
  const shapes = moduleShapes(m);
  const perLayerLinear = LORA_MODULES.reduce((sum, name) => sum + shapes[name].dIn * shapes[name].dOut, 0);
  const perLayerNorm = 2 * m.hidden + (m.qkNorm ? 2 * m.headDim : 0);
  const blockLinear = m.layers * perLayerLinear;
  const norms = m.layers * perLayerNorm + m.hidden;
  const embedding = m.vocab * m.hidden;
  const lmHead = m.tiedEmbeddings ? 0 : m.vocab * m.hidden;
  const total = blockLinear + norms + embedding + lmHead;
  return { blockLinear, norms, embedding, lmHead, total, nonEmbedding: total - embedding - lmHead };
}
