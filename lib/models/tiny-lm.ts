import * as tf from '@tensorflow/tfjs';
import { createRng, type Rng } from '@/lib/random';
import { attends, resolveConfig, sameLora, type LoraConfig, type LoraTarget, type TinyLMConfig } from './config';
import { createLinear, type Linear } from './linear';
import { attentionProbs, dense, layerNorm, matMul2d, oneHotF32, selfAttention } from './ops';
import { createParamStore, type ParamStore } from './params';
import { fusedDecodingAvailable, openFusedDecoding, type FusedDecodingSession } from './decode-kernel/session';

export type { FusedDecodingSession } from './decode-kernel/session';

/** What a forward pass returns. Shapes: B batch, T positions, V vocabulary. */
export interface LMOutput {
  /** Next-token logits at every position [B, T, V]. */
  logits: tf.Tensor3D;
  /** Value estimate at every position [B, T] (only with config.value_head). */
  values?: tf.Tensor2D;
  /** With `returnAttention`: the last layer's attention probabilities [B, H, K + T, K + T] (prefix positions first). */
  attention?: tf.Tensor4D;
}

/** Options of a forward pass. */
export interface ForwardOptions {
  /** Enables LoRA dropout. */
  training?: boolean;
  /**
   * Input embeddings [B, K, d_model] placed before the tokens (a vision-language model's image tokens): they take
   * positions 0…K − 1 (position embeddings added), the tokens K…K + T − 1, and the outputs cover the tokens only.
   * Gradients flow into the prefix. K + T ≤ context_length.
   */
  prefix?: tf.Tensor3D;
  /** Also return the last layer's attention probabilities (for inspection: an extra product, not for training). */
  returnAttention?: boolean;
}

/**
 * What a training update needs of a policy: a forward over token ids, its variables, and a frozen copy (the KL
 * reference). A TinyLM is one; so is the vision lab's model bound to a batch's pictures (vision-lm.ts bindPictures).
 */
export interface TrainablePolicy {
  forward(ids: tf.Tensor2D, opts?: { training?: boolean }): LMOutput;
  trainableVariables(): tf.Variable[];
  clone(): TrainablePolicy & { dispose(): void };
}

/** The minimal surface generation needs; TinyLM satisfies it. */
export interface CausalLM {
  readonly config: { vocab_size: number; context_length: number };
  forward(ids: tf.Tensor2D, opts?: { training?: boolean }): LMOutput;
  /** Incremental decoding with a key/value cache, if the model has it (generation then skips recomputing prefixes). */
  beginDecoding?(): DecodingSession;
  /**
   * The same decoding as one WebAssembly call per step (lib/models/decode-kernel), on the weights as they are now; null
   * where the kernel cannot run (no WebAssembly SIMD, or shapes that are not whole SIMD lanes).
   */
  beginFusedDecoding?(): Promise<FusedDecodingSession | null>;
}

/**
 * A batch of rows being decoded: a key/value cache per layer, [rows, H, context_length, hd], and each row's length.
 * Inference only (no gradient). Its tensors live until dispose(), across the awaits of a generation loop.
 */
export interface DecodingSession {
  /**
   * Appends each current row's new tokens (at least one per row, any number: a sampled token, or a tool's reply too)
   * and returns the next-token logits after each row's last new token, [rows, V]; the caller disposes them.
   */
  feed(tokens: number[][]): tf.Tensor2D;
  /** Keeps only these rows (indices into the current rows), in this order. */
  select(rows: number[]): void;
  dispose(): void;
}

export interface TinyLM extends CausalLM {
  readonly kind: 'tiny-lm';
  readonly config: Required<TinyLMConfig>;
  /** A frozen model has no trainable variables (reference model for KL / DPO). */
  readonly frozen: boolean;
  /** ids int32 [B, T] with T ≤ context_length. Runs inside its own tidy: only the outputs survive. */
  forward(ids: tf.Tensor2D, opts?: ForwardOptions): LMOutput;
  beginDecoding(): DecodingSession;
  beginFusedDecoding(): Promise<FusedDecodingSession | null>;
  /** Every weight by name, in a stable order (the checkpoint order). */
  namedWeights(): ReadonlyMap<string, tf.Variable>;
  /** What an optimizer should update: all weights; with LoRA only adapters and value head; none when frozen. */
  trainableVariables(): tf.Variable[];
  allVariables(): tf.Variable[];
  paramCount(): number;
  trainableParamCount(): number;
  /** Folds every adapter into its base weight (W ← W + s·A·B) / takes it back out. */
  mergeLora(): void;
  unmergeLora(): void;
  readonly loraMerged: boolean;
  /** Declares the merged state without arithmetic (checkpoint load). */
  setLoraMerged(merged: boolean): void;
  /** An independent, frozen copy with identical outputs. */
  clone(): TinyLM;
  /**
   * A new trainable model that starts from this one's function, with adapters / value head added or removed.
   * Adapters that change are baked into the base weights first; new adapters start at ΔW = 0.
   */
  withAdapters(changes: { lora?: LoraConfig | null; value_head?: boolean }, seed: number): TinyLM;
  dispose(): void;
}

interface Block {
  qkv: Linear;
  out: Linear;
  fc1: Linear;
  fc2: Linear;
}

/** Creates a fresh model; all weights drawn from `seed` (identical on every backend). */
export function createTinyLM(config: TinyLMConfig, seed: number, opts: { frozen?: boolean } = {}): TinyLM {
  const c = resolveConfig(config);
  const frozen = opts.frozen ?? false;
  const { vocab_size: V, context_length: C, d_model: D, n_layers: L, n_heads: H, d_ff: F } = c;
  const hd = D / H;
  const rng = createRng(seed);
  const loraRng = rng.fork('lora'); // separate streams: adding adapters or a value head keeps the base weights
  const valueRng = rng.fork('value_head');
  const store = createParamStore();
  const baseTrainable = !frozen && c.lora == null;
  const p = (name: string, shape: number[], std: number) =>
    store.create(name, shape, { kind: 'normal', std }, rng, baseTrainable);
  const ln = (name: string) => ({
    g: store.create(`${name}.g`, [D], { kind: 'ones' }, rng, baseTrainable),
    b: store.create(`${name}.b`, [D], { kind: 'zeros' }, rng, baseTrainable),
  });
  const linear = (name: string, target: LoraTarget, inDim: number, outDim: number, std: number) =>
    createLinear(
      store,
      {
        name,
        inDim,
        outDim,
        init: { kind: 'normal', std },
        trainable: baseTrainable,
        lora: c.lora?.target_modules.includes(target) ? c.lora : null,
        loraTrainable: !frozen,
      },
      rng,
      loraRng,
    );

  const tokEmb = p('tok_emb', [V, D], 0.1);
  const posEmb = p('pos_emb', [C, D], 0.1);
  const residStd = 1 / Math.sqrt(2 * L); // GPT-2: shrink the layers that write into the residual stream
  const blocks: (Block & { ln1: ReturnType<typeof ln>; ln2: ReturnType<typeof ln> })[] = [];
  for (let l = 0; l < L; l++) {
    const n = `blocks.${l}`;
    blocks.push({
      ln1: ln(`${n}.ln1`),
      qkv: linear(`${n}.qkv`, 'qkv', D, 3 * D, 1 / Math.sqrt(D)),
      out: linear(`${n}.out`, 'out', D, D, residStd / Math.sqrt(D)),
      ln2: ln(`${n}.ln2`),
      fc1: linear(`${n}.fc1`, 'fc1', D, F, 1 / Math.sqrt(D)),
      fc2: linear(`${n}.fc2`, 'fc2', F, D, residStd / Math.sqrt(F)),
    });
  }
  const lnF = ln('ln_f');
  const head = linear('head', 'head', D, V, 0.5 / Math.sqrt(D));
  const valueW = c.value_head ? store.create('value_head.W', [D, 1], { kind: 'normal', std: 0.01 }, valueRng, !frozen) : null;
  const valueB = c.value_head ? store.create('value_head.b', [1], { kind: 'zeros' }, valueRng, !frozen) : null;
  const linears: Linear[] = [...blocks.flatMap((b) => [b.qkv, b.out, b.fc1, b.fc2]), head].filter((x) => x.hasLora);

  // Causal mask built once: 0 where key ≤ query (and within the sliding window), −1e9 elsewhere; sliced to [T, T] per call.
  const maskValues = new Float32Array(C * C);
  for (let i = 0; i < C; i++) for (let j = 0; j < C; j++) if (!attends(i, j, c.sliding_window)) maskValues[i * C + j] = -1e9;
  const mask = tf.keep(tf.tensor2d(maskValues, [C, C]));
  const dropoutRng: Rng = rng.fork('lora-dropout');

  function forward(ids: tf.Tensor2D, fopts: ForwardOptions = {}): LMOutput {
    const [B, T] = ids.shape;
    const prefix = fopts.prefix;
    const K = prefix ? prefix.shape[1] : 0;
    const S = K + T; // positions the blocks see: the prefix, then the tokens
    if (S > C) throw new Error(prefix ? `prefix (${K}) + sequence length ${T} exceeds context_length ${C}` : `sequence length ${T} exceeds context_length ${C}`);
    if (ids.dtype !== 'int32') throw new Error(`ids must be int32, got ${ids.dtype}`);
    if (prefix && (prefix.shape[0] !== B || prefix.shape[2] !== D)) throw new Error(`prefix must be [${B}, K, ${D}], got [${prefix.shape}]`);
    const lopts = { training: fopts.training ?? false, rng: dropoutRng };
    return tf.tidy(() => {
      // oneHot·E rather than gather: gather's gradient is missing on wasm.
      const tok = matMul2d(oneHotF32(tf.reshape(ids, [B * T]), V) as tf.Tensor2D, tokEmb as tf.Tensor2D); // [BT, D]
      const pos = S === C ? posEmb : tf.slice(posEmb, [0, 0], [S, D]); // [S, D]
      const embedded = prefix ? tf.concat([prefix, tf.reshape(tok, [B, T, D])], 1) : tf.reshape(tok, [B, T, D]); // [B, S, D]
      let x = tf.reshape(tf.add(embedded, pos), [B * S, D]) as tf.Tensor2D; // [BS, D]
      const m = S === C ? mask : tf.slice(mask, [0, 0], [S, S]); // [S, S]
      let probs: tf.Tensor4D | undefined;
      blocks.forEach((blk, l) => {
        const qkv = blk.qkv.apply(layerNorm(x, blk.ln1.g, blk.ln1.b), lopts); // [BS, 3D]
        const y = selfAttention(qkv, B, S, H, m); // [BS, D]
        if (fopts.returnAttention && l === L - 1) probs = attentionProbs(qkv, B, S, H, m);
        x = tf.add(x, blk.out.apply(y, lopts));
        const h = blk.fc1.apply(layerNorm(x, blk.ln2.g, blk.ln2.b), { ...lopts, activation: 'relu' }); // [BS, F]
        x = tf.add(x, blk.fc2.apply(h, lopts));
      });
      // The prefix predicts nothing: only the tokens' positions go through the head.
      const xt = prefix ? (tf.reshape(tf.slice(tf.reshape(x, [B, S, D]), [0, K, 0], [B, T, D]), [B * T, D]) as tf.Tensor2D) : x; // [BT, D]
      const hf = layerNorm(xt, lnF.g, lnF.b); // [BT, D]
      const logits = tf.reshape(head.apply(hf, lopts), [B, T, V]) as tf.Tensor3D;
      const attentionOut = probs ? { attention: probs } : {};
      if (!valueW) return { logits, ...attentionOut };
      const values = tf.reshape(dense(hf, valueW as tf.Tensor2D, valueB!), [B, T]) as tf.Tensor2D;
      return { logits, values, ...attentionOut };
    });
  }

  /**
   * The forward pass above, one chunk of new tokens at a time against cached keys and values. Row b's new tokens sit
   * at positions start_b … start_b + count_b − 1; shorter chunks are padded, and padding is neither written to the
   * cache nor read back. Same arithmetic as forward() (each score and each weighted sum is the same dot product), so
   * the logits agree with it to float rounding. The cache is batch-first, [B, H, C, hd], so that dropping finished
   * rows is one plain 2-D matmul by a 0/1 selection matrix (exact, and ~10× faster on wasm than a gather).
   * Slots at or after a row's length are always exactly 0: a slot is written once, so writing is an add.
   */
  function beginDecoding(): DecodingSession {
    let keys: tf.Tensor4D[] = []; // per layer [B, H, C, hd]
    let values: tf.Tensor4D[] = [];
    let lengths: number[] = [];
    const replace = (next: { keys: tf.Tensor4D[]; values: tf.Tensor4D[] }) => {
      tf.dispose([...keys, ...values]);
      keys = next.keys.map((t) => tf.keep(t));
      values = next.values.map((t) => tf.keep(t));
    };
    return {
      feed(tokens) {
        if (lengths.length === 0) lengths = tokens.map(() => 0);
        if (tokens.length !== lengths.length) throw new Error(`feed: ${tokens.length} rows of tokens for ${lengths.length} rows`);
        const B = tokens.length;
        const K = Math.max(...tokens.map((t) => t.length));
        if (tokens.some((t) => t.length === 0)) throw new Error('feed: every row needs at least one new token');
        const ends = tokens.map((t, b) => lengths[b] + t.length);
        if (Math.max(...ends) > C) throw new Error(`sequence length ${Math.max(...ends)} exceeds context_length ${C}`);
        // The first chunk starts every row at slot 0, so token j goes to slot j: padding the chunk to C places it.
        const fromStart = keys.length === 0;
        // Plain arrays built once per call: ids, positions (padding parked on a valid slot), cache writes, the mask.
        const ids = new Int32Array(B * K);
        const positions = new Int32Array(B * K);
        const write = new Float32Array(fromStart ? B * C : B * C * K); // [B, C, 1] or [B, C, K]: where token j goes
        const maskValues = new Float32Array(B * K * C).fill(-1e9); // [B, K, C]: 0 where slot t is visible to token j
        tokens.forEach((row, b) => {
          for (let j = 0; j < K; j++) {
            const valid = j < row.length;
            const pos = valid ? lengths[b] + j : lengths[b];
            ids[b * K + j] = valid ? row[j] : row[0];
            positions[b * K + j] = pos;
            if (valid) write[fromStart ? b * C + pos : (b * C + pos) * K + j] = 1;
            for (let t = 0; t <= Math.min(pos, C - 1); t++) if (attends(pos, t, c.sliding_window)) maskValues[(b * K + j) * C + t] = 0;
          }
        });
        const out = tf.tidy(() => {
          const tok = matMul2d(oneHotF32(tf.tensor1d(ids, 'int32'), V) as tf.Tensor2D, tokEmb as tf.Tensor2D); // [BK, D]
          const pos = matMul2d(oneHotF32(tf.tensor1d(positions, 'int32'), C) as tf.Tensor2D, posEmb as tf.Tensor2D); // [BK, D]
          let x = tf.add(tok, pos) as tf.Tensor2D; // [BK, D]
          const writes = tf.tensor4d(write, fromStart ? [B, 1, C, 1] : [B, 1, C, K]);
          const mask = tf.tensor4d(maskValues, [B, 1, K, C]);
          const scale = 1 / Math.sqrt(hd);
          const nextKeys: tf.Tensor4D[] = [];
          const nextValues: tf.Tensor4D[] = [];
          const into = (cache: tf.Tensor4D | undefined, fresh: tf.Tensor4D): tf.Tensor4D => {
            let placed: tf.Tensor4D; // [B, H, C, hd], zero except on the slots written now
            if (fromStart) placed = tf.mul(tf.pad(fresh, [[0, 0], [0, 0], [0, C - K], [0, 0]]), writes);
            // One new token per row (every sampling step): a broadcast multiply, ~3× faster on wasm than a batched
            // matmul of B·H matrices with an inner dimension of 1 (same arithmetic).
            else if (K === 1) placed = tf.mul(writes, fresh);
            // Several tokens at once past the start (a tool's reply): writes [B, C, K] times each head's [K, hd].
            // Tiled over heads, because tfjs-wasm broadcasts batched matmuls only over leading dimensions.
            else placed = tf.matMul(tf.tile(writes, [1, H, 1, 1]), fresh);
            return cache ? tf.add(cache, placed) : placed;
          };
          blocks.forEach((blk, l) => {
            const qkv = blk.qkv.apply(layerNorm(x, blk.ln1.g, blk.ln1.b)); // [BK, 3D]
            // [B, 3H, K, hd]; with one token per row that is a reshape, no transpose.
            const heads = K === 1 ? tf.reshape(qkv, [B, 3 * H, 1, hd]) : tf.transpose(tf.reshape(qkv, [B, K, 3 * H, hd]), [0, 2, 1, 3]);
            const [q, k, v] = tf.split(heads, 3, 1) as tf.Tensor4D[]; // each [B, H, K, hd]
            nextKeys.push(into(keys[l], k));
            nextValues.push(into(values[l], v));
            const scores = tf.add(tf.mul(tf.matMul(q, nextKeys[l], false, true), scale), mask); // [B, H, K, C]
            const att = tf.matMul(tf.softmax(scores), nextValues[l]); // [B, H, K, hd]
            const y = (K === 1 ? tf.reshape(att, [B, D]) : tf.reshape(tf.transpose(att, [0, 2, 1, 3]), [B * K, D])) as tf.Tensor2D;
            x = tf.add(x, blk.out.apply(y));
            const h = blk.fc1.apply(layerNorm(x, blk.ln2.g, blk.ln2.b), { activation: 'relu' });
            x = tf.add(x, blk.fc2.apply(h));
          });
          // Only each row's last new token predicts anything: pick it before the head.
          const last = K === 1 ? x : (tf.gather(x, tf.tensor1d(tokens.map((t, b) => b * K + t.length - 1), 'int32')) as tf.Tensor2D);
          const hf = layerNorm(last, lnF.g, lnF.b); // [B, D]
          return { logits: head.apply(hf), keys: nextKeys, values: nextValues };
        });
        replace(out);
        lengths = ends;
        return out.logits;
      },
      select(rows) {
        if (keys.length === 0) {
          lengths = rows.map((r) => lengths[r]);
          return;
        }
        const B = lengths.length;
        const pick = new Float32Array(rows.length * B); // [rows, B]: one 1 per line
        rows.forEach((r, i) => (pick[i * B + r] = 1));
        const next = tf.tidy(() => {
          const selection = tf.tensor2d(pick, [rows.length, B]);
          const take = (t: tf.Tensor4D) => tf.reshape(tf.matMul(selection, tf.reshape(t, [B, H * C * hd])), [rows.length, H, C, hd]) as tf.Tensor4D;
          return { keys: keys.map(take), values: values.map(take) };
        });
        replace(next);
        lengths = rows.map((r) => lengths[r]);
      },
      dispose() {
        tf.dispose([...keys, ...values]);
        keys = [];
        values = [];
      },
    };
  }

  /**
   * Every weight the forward pass computes with (adapters folded in), flat in the kernel's order. Backends that keep
   * tensors in CPU memory (wasm, cpu) copy each one out, with no kernel dispatched; GPU backends concatenate them and
   * read back once.
   */
  async function beginFusedDecoding(): Promise<FusedDecodingSession | null> {
    if (!(await fusedDecodingAvailable(c))) return null;
    const folded: tf.Tensor[] = []; // effective weights of unmerged adapters, computed here and freed below
    const weightOf = (lin: Linear) => {
      if (!lin.hasLora || lin.merged) return lin.weight;
      folded.push(lin.effectiveWeight());
      return folded[folded.length - 1];
    };
    const parts: tf.Tensor[] = [tokEmb, posEmb];
    try {
      for (const blk of blocks) {
        parts.push(blk.ln1.g, blk.ln1.b, weightOf(blk.qkv), blk.qkv.bias, weightOf(blk.out), blk.out.bias);
        parts.push(blk.ln2.g, blk.ln2.b, weightOf(blk.fc1), blk.fc1.bias, weightOf(blk.fc2), blk.fc2.bias);
      }
      parts.push(lnF.g, lnF.b, weightOf(head), head.bias);
      let weights: Float32Array;
      if (['wasm', 'cpu'].includes(tf.getBackend())) {
        weights = new Float32Array(parts.reduce((n, t) => n + t.size, 0));
        let at = 0;
        for (const t of parts) {
          weights.set(t.dataSync() as Float32Array, at);
          at += t.size;
        }
      } else {
        const packed = tf.tidy(() => tf.concat(parts.map((t) => tf.reshape(t, [-1]))));
        try {
          weights = (await packed.data()) as Float32Array;
        } finally {
          packed.dispose();
        }
      }
      return await openFusedDecoding(c, weights);
    } finally {
      tf.dispose(folded);
    }
  }

  const all = () => [...store.named.values()];
  const size = (vs: tf.Variable[]) => vs.reduce((s, v) => s + v.size, 0);
  const model: TinyLM = {
    kind: 'tiny-lm',
    config: c,
    frozen,
    forward,
    beginDecoding,
    beginFusedDecoding,
    namedWeights: () => store.named,
    trainableVariables: () => all().filter((v) => v.trainable),
    allVariables: all,
    paramCount: () => size(all()),
    trainableParamCount: () => size(all().filter((v) => v.trainable)),
    mergeLora: () => linears.forEach((l) => l.merge()),
    unmergeLora: () => linears.forEach((l) => l.unmerge()),
    get loraMerged() {
      return linears.length > 0 && linears[0].merged;
    },
    setLoraMerged: (m) => linears.forEach((l) => l.setMerged(m)),
    clone: () => {
      const copy = createTinyLM(c, 1, { frozen: true });
      copyWeights(store, copy.namedWeights());
      if (model.loraMerged) copy.setLoraMerged(true);
      return copy;
    },
    withAdapters: (changes, newSeed) => deriveModel(model, blocks, head, changes, newSeed),
    dispose: () => {
      store.dispose();
      mask.dispose();
    },
  };
  return model;
}

function copyWeights(from: ParamStore, to: ReadonlyMap<string, tf.Variable>): void {
  to.forEach((v, name) => v.assign(from.get(name)));
}

function deriveModel(
  src: TinyLM,
  blocks: Block[],
  head: Linear,
  changes: { lora?: LoraConfig | null; value_head?: boolean },
  seed: number,
): TinyLM {
  const lora = changes.lora === undefined ? src.config.lora : changes.lora;
  const next = createTinyLM({ ...src.config, lora, value_head: changes.value_head ?? src.config.value_head }, seed);
  const keepAdapters = sameLora(lora, src.config.lora);
  const effective = new Map<string, Linear>();
  if (!keepAdapters) for (const l of [...blocks.flatMap((b) => [b.qkv, b.out, b.fc1, b.fc2]), head]) effective.set(`${l.name}.W`, l);
  const srcWeights = src.namedWeights();
  next.namedWeights().forEach((v, name) => {
    const isAdapter = name.includes('.lora_');
    if (isAdapter && !keepAdapters) return; // fresh adapter: ΔW = 0
    const lin = effective.get(name);
    if (lin) {
      tf.tidy(() => v.assign(lin.effectiveWeight())); // bake the old adapter in
      return;
    }
    const w = srcWeights.get(name);
    if (w) v.assign(w);
  });
  if (keepAdapters && src.loraMerged) next.setLoraMerged(true);
  return next;
}
