/**
 * Real model shapes for the memory calculator, copied from each model's config.json on the Hugging Face
 * Hub (the `source` field). The parameter count is computed from the shapes (decoder-only, RMSNorm, SwiGLU
 * MLP, grouped-query attention, no biases) and tested against each model's published total.
 */

export interface ModelShape {
  id: string;
  name: string;
  /** config.json on the Hub. */
  source: string;
  /** Published total, for the test of paramCount (and to show the reader). */
  publishedParams: string;
  hidden: number; // hidden_size, h
  intermediate: number; // intermediate_size of the SwiGLU MLP
  layers: number; // num_hidden_layers, L
  heads: number; // num_attention_heads, a
  kvHeads: number; // num_key_value_heads
  headDim: number; // head_dim (hidden / heads unless config.json says otherwise)
  vocab: number; // vocab_size
  tiedEmbeddings: boolean; // tie_word_embeddings: the output layer reuses the input embedding
  /** Qwen3 normalises queries and keys per head (q_norm, k_norm: one vector of head_dim each). */
  qkNorm: boolean;
  /** attention_dropout > 0 in config.json: the attention probabilities are kept with a dropout mask. */
  attentionDropout: boolean;
}

export const MODEL_PRESETS: readonly ModelShape[] = [
  {
    id: 'qwen3-0.6b',
    name: 'Qwen3-0.6B',
    source: 'https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/config.json',
    publishedParams: '0.6B (0.44B without embeddings)',
    hidden: 1024,
    intermediate: 3072,
    layers: 28,
    heads: 16,
    kvHeads: 8,
    headDim: 128,
    vocab: 151936,
    tiedEmbeddings: true,
    qkNorm: true,
    attentionDropout: false,
  },
  {
    id: 'llama-3.1-8b',
    name: 'Llama-3.1-8B',
    source: 'https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json',
    publishedParams: '8.03B',
    hidden: 4096,
    intermediate: 14336,
    layers: 32,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    vocab: 128256,
    tiedEmbeddings: false,
    qkNorm: false,
    attentionDropout: false,
  },
  {
    id: 'llama-3.1-70b',
    name: 'Llama-3.1-70B',
    source: 'https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json',
    publishedParams: '70.6B',
    hidden: 8192,
    intermediate: 28672,
    layers: 80,
    heads: 64,
    kvHeads: 8,
    headDim: 128,
    vocab: 128256,
    tiedEmbeddings: false,
    qkNorm: false,
    attentionDropout: false,
  },
];

export function findModel(id: string): ModelShape {
  const model = MODEL_PRESETS.find((m) => m.id === id);
  if (!model) throw new Error(`unknown model "${id}"; choose one of ${MODEL_PRESETS.map((m) => m.id).join(', ')}`);
  return model;
}

/** Parameters of one decoder layer: attention (q, k, v, o), SwiGLU MLP (gate, up, down) and two norms. */
export function layerParams(m: ModelShape): number {
  const q = m.hidden * m.heads * m.headDim;
  const kv = 2 * m.hidden * m.kvHeads * m.headDim;
  const o = m.heads * m.headDim * m.hidden;
  const mlp = 3 * m.hidden * m.intermediate;
  const norms = 2 * m.hidden + (m.qkNorm ? 2 * m.headDim : 0);
  return q + kv + o + mlp + norms;
}

/** Input embedding, plus the output layer unless tied. */
export function embeddingParams(m: ModelShape): number {
  return m.vocab * m.hidden * (m.tiedEmbeddings ? 1 : 2);
}

/** Ψ: every layer, the embeddings and the final norm. */
export function paramCount(m: ModelShape): number {
  return m.layers * layerParams(m) + embeddingParams(m) + m.hidden;
}
