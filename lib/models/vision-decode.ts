/**
 * The vision model's cached decoding: image tokens and question run through the model once per group of rows that
 * share them (GRPO's num_generations answers to one picture and question), their keys and values kept per layer, and
 * each answer token then runs alone against that cache. It replaced re-running the whole forward for every answer
 * token of every row: a GRPO step of the lab (32 pictures × 8 answers, 16 image tokens + 5 question tokens) ran
 * 256 rows × 21–23 positions three times; now 32 rows × 21 positions once, then 256 single positions per token
 * (measured in one Node process, wasm, loaded machine: the lab's sampling call 256 → 34 ms, best of 20 each).
 *
 * Why not TinyLM.beginDecoding or the fused kernel (decode-kernel/): both give the forward's probabilities only to
 * float rounding (the tfjs session takes its softmax over all context_length slots, and XNNPACK's softmax sums in SIMD
 * lanes whose grouping depends on the row's length; the kernel has its own exp), so a seed's samples would move on
 * near-ties and every seeded vision figure with them. Here every number is the one the forward computes: the same ops
 * (ops.ts dense, layerNorm, attention; matmul-kernel's batchMatMul), each output a row-wise function of the same
 * inputs, and each new token's softmax over exactly the positions the forward's last row has (no padding slots, so
 * the sums group the same). Earlier positions are kept as first computed, where the re-run forward pads them to the
 * current length: on wasm that regroups a softmax sum once the length passes a multiple of 4, so sampleAnswers uses the
 * cache only where no length does (vision-lm.ts cacheMatchesForward: every picture size the lab allows).
 * tests/unit/models/vision-decode.test.ts checks tokens and log-probabilities bit for bit against the full-forward
 * sampler on cpu and on wasm, at the lab's shapes.
 */
import * as tf from '@tensorflow/tfjs';
import { attends } from './config';
import { attention, dense, layerNorm, matMul2d, oneHotF32 } from './ops';
import { batchMatMul } from './matmul-kernel/batch-matmul';
import type { VisionLM } from './vision-lm';

/** Rows decoded together: a key and value cache per layer [rows, H, length, hd], every row at the same length. */
export interface VisionDecoding {
  /**
   * Encodes each group's picture and prompt once (rows `groupOf[i]` of `prompts`/`patches` are the groups' leaders)
   * and returns the next-token logits [groups, V] after each prompt; the caller disposes them. Then the cache holds
   * the groups, expanded to rows by the next select().
   */
  start(prompts: number[][], patches: tf.Tensor3D | null): tf.Tensor2D;
  /** Keeps these rows of the current ones (indices, in this order; repeats allowed: a group expands to its rows). */
  select(rows: number[]): void;
  /** Appends one token to each current row and returns the next-token logits [rows, V]; the caller disposes them. */
  feed(tokens: number[]): tf.Tensor2D;
  /** Positions each row holds (image tokens included). */
  readonly length: number;
  dispose(): void;
}

/** Whether the cached decoding reproduces this model's forward: not with an unmerged LoRA adapter or a sliding window. */
export function visionDecodingApplies(model: VisionLM): boolean {
  const c = model.lm.config;
  return (c.lora == null || model.lm.loraMerged) && c.sliding_window == null;
}

export function beginVisionDecoding(model: VisionLM): VisionDecoding {
  if (!visionDecodingApplies(model)) throw new Error('cached vision decoding: the model has an unmerged LoRA adapter or a sliding window');
  const c = model.lm.config;
  const { vocab_size: V, context_length: C, d_model: D, n_layers: L, n_heads: H } = c;
  const hd = D / H;
  const scale = 1 / Math.sqrt(hd);
  const w = model.lm.namedWeights();
  const get = (name: string) => {
    const v = w.get(name);
    if (!v) throw new Error(`cached vision decoding: the model has no weight ${name}`);
    return v as tf.Tensor as tf.Tensor2D;
  };
  const blocks = Array.from({ length: L }, (_, l) => {
    const n = (part: string) => get(`blocks.${l}.${part}`);
    return {
      ln1: [n('ln1.g'), n('ln1.b')],
      qkv: [n('qkv.W'), n('qkv.b')],
      out: [n('out.W'), n('out.b')],
      ln2: [n('ln2.g'), n('ln2.b')],
      fc1: [n('fc1.W'), n('fc1.b')],
      fc2: [n('fc2.W'), n('fc2.b')],
    };
  });
  const [tokEmb, posEmb, lnFg, lnFb, headW, headB] = ['tok_emb', 'pos_emb', 'ln_f.g', 'ln_f.b', 'head.W', 'head.b'].map(get);

  let keys: tf.Tensor4D[] = []; // per layer [rows, H, length, hd]
  let values: tf.Tensor4D[] = [];
  let length = 0;
  const replace = (next: { keys: tf.Tensor4D[]; values: tf.Tensor4D[] }) => {
    tf.dispose([...keys, ...values]);
    keys = next.keys.map((t) => tf.keep(t));
    values = next.values.map((t) => tf.keep(t));
  };

  /** The rest of a block after attention, as TinyLM's forward runs it: x + out(y), then x + fc2(relu(fc1(LN(x)))). */
  const finishBlock = (blk: (typeof blocks)[number], x: tf.Tensor2D, y: tf.Tensor2D) => {
    const x1 = tf.add(x, dense(y, blk.out[0], blk.out[1])) as tf.Tensor2D;
    const h = dense(layerNorm(x1, blk.ln2[0], blk.ln2[1]), blk.fc1[0], blk.fc1[1], 'relu');
    return tf.add(x1, dense(h, blk.fc2[0], blk.fc2[1])) as tf.Tensor2D;
  };
  const headOf = (x: tf.Tensor2D) => dense(layerNorm(x, lnFg, lnFb), headW, headB); // [rows, V]

  return {
    start(prompts, patches) {
      if (keys.length > 0) throw new Error('start: the decoding session has already started');
      const B = prompts.length;
      const T = prompts[0].length;
      if (prompts.some((p) => p.length !== T)) throw new Error('start: prompts must all have the same length');
      const K = patches ? patches.shape[1] : 0;
      const S = K + T;
      if (S > C) throw new Error(`${K} image tokens + ${T} tokens exceed context_length ${C}`);
      // Causal mask [S, S] with TinyLM's values: 0 where the key is visible, −1e9 elsewhere.
      const maskValues = new Float32Array(S * S);
      for (let i = 0; i < S; i++) for (let j = 0; j < S; j++) if (!attends(i, j, null)) maskValues[i * S + j] = -1e9;
      const out = tf.tidy(() => {
        // TinyLM.forward with `prefix`, op for op, keeping each layer's keys and values.
        const ids = tf.tensor1d(prompts.flat(), 'int32');
        const tok = matMul2d(oneHotF32(ids, V) as tf.Tensor2D, tokEmb); // [BT, D]
        const pos = S === C ? posEmb : tf.slice(posEmb, [0, 0], [S, D]);
        const prefix = patches ? model.encoder.encode(patches) : null; // [B, K, D]
        const embedded = prefix ? tf.concat([prefix, tf.reshape(tok, [B, T, D])], 1) : tf.reshape(tok, [B, T, D]);
        let x = tf.reshape(tf.add(embedded, pos), [B * S, D]) as tf.Tensor2D;
        const m = tf.tensor2d(maskValues, [S, S]);
        const nextKeys: tf.Tensor4D[] = [];
        const nextValues: tf.Tensor4D[] = [];
        for (const blk of blocks) {
          const qkv = dense(layerNorm(x, blk.ln1[0], blk.ln1[1]), blk.qkv[0], blk.qkv[1]); // [BS, 3D]
          const heads = tf.transpose(tf.reshape(qkv, [B, S, 3 * H, hd]), [2, 0, 1, 3]); // [3H, B, S, hd]
          const [q, k, v] = tf.split(heads, 3, 0) as tf.Tensor4D[]; // each [H, B, S, hd]
          nextKeys.push(tf.transpose(k, [1, 0, 2, 3])); // [B, H, S, hd]: rows first, so select() is a gather
          nextValues.push(tf.transpose(v, [1, 0, 2, 3]));
          const att = attention(q, k, v, m); // [H, B, S, hd]
          x = finishBlock(blk, x, tf.reshape(tf.transpose(att, [1, 2, 0, 3]), [B * S, D]) as tf.Tensor2D);
        }
        // Only the last prompt position predicts the answer's first token; the head works row by row.
        const last = tf.reshape(tf.slice(tf.reshape(x, [B, S, D]), [0, S - 1, 0], [B, 1, D]), [B, D]) as tf.Tensor2D;
        return { logits: headOf(last), keys: nextKeys, values: nextValues };
      });
      replace(out);
      length = S;
      return out.logits;
    },
    select(rows) {
      if (keys.length === 0) throw new Error('select: start() first');
      const B = keys[0].shape[0];
      if (rows.some((r) => !Number.isInteger(r) || r < 0 || r >= B)) throw new Error(`select: rows must be indices below ${B}`);
      // A 0/1 selection matrix times the cache, as TinyLM's decoding session selects: exact (1·x plus zeros is x),
      // and on wasm far faster than tf.gather (measured: 9 gathers of the lab's cache took ~175 ms, the whole rest
      // of the sampling call ~60 ms).
      const pick = new Float32Array(rows.length * B);
      rows.forEach((r, i) => (pick[i * B + r] = 1));
      const next = tf.tidy(() => {
        const selection = tf.tensor2d(pick, [rows.length, B]);
        const take = (t: tf.Tensor4D) => tf.reshape(matMul2d(selection, tf.reshape(t, [B, -1]) as tf.Tensor2D), [rows.length, t.shape[1], t.shape[2], t.shape[3]]) as tf.Tensor4D;
        return { keys: keys.map(take), values: values.map(take) };
      });
      replace(next);
    },
    feed(tokens) {
      if (keys.length === 0) throw new Error('feed: start() first');
      const B = keys[0].shape[0];
      if (tokens.length !== B) throw new Error(`feed: ${tokens.length} tokens for ${B} rows`);
      if (length >= C) throw new Error(`sequence length ${length + 1} exceeds context_length ${C}`);
      const out = tf.tidy(() => {
        const tok = matMul2d(oneHotF32(tf.tensor1d(tokens, 'int32'), V) as tf.Tensor2D, tokEmb); // [B, D]
        let x = tf.add(tok, tf.slice(posEmb, [length, 0], [1, D])) as tf.Tensor2D; // [B, D]
        const nextKeys: tf.Tensor4D[] = [];
        const nextValues: tf.Tensor4D[] = [];
        blocks.forEach((blk, l) => {
          const qkv = dense(layerNorm(x, blk.ln1[0], blk.ln1[1]), blk.qkv[0], blk.qkv[1]); // [B, 3D]
          // Three column slices of [B, 3D], each [B, H, 1, hd]: the same values as the forward's split, copied faster
          // on wasm than tf.split of [B, 3H, 1, hd] (tfjs-wasm's SplitV was ~10 ms a call at the lab's batch, loaded).
          const [q, k, v] = [0, 1, 2].map((i) => tf.reshape(tf.slice(qkv, [0, i * D], [B, D]), [B, H, 1, hd]) as tf.Tensor4D);
          const ks = tf.concat([keys[l], k], 2) as tf.Tensor4D; // [B, H, length + 1, hd]
          const vs = tf.concat([values[l], v], 2) as tf.Tensor4D;
          nextKeys.push(ks);
          nextValues.push(vs);
          // The forward's last row of attention: every key visible, so its mask adds 0 (which also turns −0 into +0).
          const scores = tf.add(tf.mul(batchMatMul(q, ks, false, true), scale), 0); // [B, H, 1, length + 1]
          const att = batchMatMul(tf.softmax(scores) as tf.Tensor4D, vs); // [B, H, 1, hd]
          x = finishBlock(blk, x, tf.reshape(att, [B, D]) as tf.Tensor2D);
        });
        return { logits: headOf(x), keys: nextKeys, values: nextValues };
      });
      replace(out);
      length += 1;
      return out.logits;
    },
    get length() {
      return length;
    },
    dispose() {
      tf.dispose([...keys, ...values]);
      keys = [];
      values = [];
    },
  };
}
