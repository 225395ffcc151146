import { DECODE_KERNEL_WASM_BASE64 } from './wasm';

/**
 * The host side of the fused decoding kernel (assembly/index.ts): a key/value-cached decoding session that runs each
 * step as one WebAssembly call instead of ~138 tfjs kernels. It computes what TinyLM.beginDecoding computes, op for
 * op in float32 (with its own exp and its own summation order), so the probabilities agree with the tfjs session to
 * ~1e-6 (tests/unit/models/decode-kernel.test.ts) and a seed gives the same completions up to near-ties. It runs on the CPU whatever the tfjs
 * backend: the weights are read back once per session (one transfer), and no step reads anything back from a GPU.
 */

/** The shapes the kernel needs (a TinyLM's resolved config). */
export interface KernelShape {
  vocab_size: number;
  context_length: number;
  d_model: number;
  n_layers: number;
  n_heads: number;
  d_ff: number;
  /** Slots a token attends to, itself included (TinyLMConfig.sliding_window); null or absent: all. */
  sliding_window?: number | null;
}

/**
 * A decoding session whose steps return probabilities in JS memory: same contract as tiny-lm's DecodingSession, but
 * feed() returns softmax(logits / temperature) [rows·V] (temperature 0: softmax(logits), as generate reads them).
 */
export interface FusedDecodingSession {
  feed(tokens: number[][], temperature: number): Float32Array;
  select(rows: number[]): void;
  dispose(): void;
}

interface KernelExports {
  memory: WebAssembly.Memory;
  configure(dModel: number, nHeads: number, nLayers: number, dFf: number, vocab: number, context: number): number;
  cacheFloatsPerRow(): number;
  scratchFloats(n: number, rows: number): number;
  heapBase(): number;
  setWindow(window: number): void;
  feed(weights: number, cache: number, tokens: number, n: number, last: number, rows: number, scratch: number, probs: number, temperature: number): void;
  selectRows(cache: number, from: number, count: number, to: number): void;
}

/** Whole SIMD lanes: the kernel reads 4 floats at a time along d_model, d_ff and each head. */
export function kernelFits(shape: KernelShape): boolean {
  const hd = shape.d_model / shape.n_heads;
  return shape.d_model % 4 === 0 && shape.d_ff % 4 === 0 && Number.isInteger(hd) && hd % 4 === 0;
}

// Compiled once per thread and shared: a compiled module holds no state. Instances (each with its own memory) are
// reused by later sessions: instantiating and growing a fresh memory per generate() call cost more than a decoding
// step, in idle time and garbage collection. A session holds its instance alone until dispose().
let compiled: Promise<WebAssembly.Module | null> | null = null;
const idleInstances: WebAssembly.Instance[] = [];
const MAX_IDLE_INSTANCES = 4;
const MAX_POOLED_BYTES = 64 * 2 ** 20; // a wasm memory never shrinks: an instance grown by a huge batch is let go

/** The compiled kernel, or null where WebAssembly SIMD is missing (then callers use the tfjs session). */
export function compileDecodeKernel(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    if (typeof WebAssembly === 'undefined') return null;
    const bytes = Uint8Array.from(atob(DECODE_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0));
    try {
      return await WebAssembly.compile(bytes);
    } catch {
      return null; // no SIMD support: a validation error, not a bug
    }
  })();
  return compiled;
}

/** Whether a model of this shape decodes through the kernel here (WebAssembly SIMD present, shapes in whole lanes). */
export async function fusedDecodingAvailable(shape: KernelShape): Promise<boolean> {
  return kernelFits(shape) && (await compileDecodeKernel()) !== null;
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

/**
 * Opens a session over `weights`: the kernel's layout (see assembly/index.ts) except that the head is not padded,
 * head.W [D, V] and head.b [V]. Returns null when the kernel cannot run here (no WebAssembly SIMD) or does not fit the
 * shapes.
 */
export async function openFusedDecoding(shape: KernelShape, weights: Float32Array): Promise<FusedDecodingSession | null> {
  if (!kernelFits(shape)) return null;
  const module = await compileDecodeKernel();
  if (!module) return null;
  const instance = idleInstances.pop() ?? (await WebAssembly.instantiate(module, {}));
  const k = instance.exports as unknown as KernelExports;
  const { vocab_size: V, context_length: C, d_model: D, n_layers: L, n_heads: H, d_ff: F } = shape;
  const weightFloats = k.configure(D, H, L, F, V, C);
  k.setWindow(shape.sliding_window ?? 0);
  const VP = Math.ceil(V / 4) * 4; // the kernel's head is zero-padded to whole SIMD lanes
  const headFloats = D * V + V;
  if (weights.length + (D + 1) * (VP - V) !== weightFloats) {
    throw new Error(`fused decoding: ${weights.length} weights given, the kernel's layout has ${weightFloats - (D + 1) * (VP - V)}`);
  }

  const weightsAt = align16(k.heapBase());
  let cacheAt = 0; // two caches of rows × cacheFloatsPerRow(): select() copies the kept rows from one into the other
  let spareAt = 0;
  let workAt = 0; // tokens, last, probs, scratch: laid out again on each feed
  let lengths: number[] = [];
  let rowCapacity = 0;
  let disposed = false;

  const ensureBytes = (end: number) => {
    const have = k.memory.buffer.byteLength;
    if (end > have) k.memory.grow(Math.ceil((end - have) / 65536));
  };
  ensureBytes(weightsAt + weightFloats * 4);
  const placed = new Float32Array(k.memory.buffer, weightsAt, weightFloats);
  placed.fill(0); // the head's padding lanes (a reused instance holds an earlier session's weights)
  const bodyFloats = weights.length - headFloats;
  placed.set(weights.subarray(0, bodyFloats));
  for (let d = 0; d < D; d++) placed.set(weights.subarray(bodyFloats + d * V, bodyFloats + (d + 1) * V), bodyFloats + d * VP);
  placed.set(weights.subarray(bodyFloats + D * V), bodyFloats + D * VP);

  const cacheBytes = (rows: number) => align16(rows * k.cacheFloatsPerRow() * 4);
  const startRows = (rows: number) => {
    rowCapacity = rows;
    cacheAt = align16(weightsAt + weightFloats * 4);
    spareAt = cacheAt + cacheBytes(rows);
    workAt = spareAt + cacheBytes(rows);
    ensureBytes(workAt);
    // No clearing needed: slots past a token's position (stale from an earlier session) are scored four at a time
    // with the valid ones, but their scores are replaced by −∞ before the softmax, and values are read up to it only.
  };

  return {
    feed(tokens, temperature) {
      if (disposed) throw new Error('feed: the decoding session was disposed');
      if (lengths.length === 0) {
        lengths = tokens.map(() => 0);
        startRows(tokens.length);
      }
      if (tokens.length !== lengths.length) throw new Error(`feed: ${tokens.length} rows of tokens for ${lengths.length} rows`);
      const rows = tokens.length;
      let n = 0;
      let longest = 0;
      for (let b = 0; b < rows; b++) {
        if (tokens[b].length === 0) throw new Error('feed: every row needs at least one new token');
        n += tokens[b].length;
        longest = Math.max(longest, lengths[b] + tokens[b].length);
      }
      if (longest > C) throw new Error(`sequence length ${longest} exceeds context_length ${C}`);
      const tokensAt = workAt;
      const lastAt = align16(tokensAt + n * 12);
      const probsAt = align16(lastAt + rows * 4);
      const scratchAt = align16(probsAt + rows * V * 4);
      ensureBytes(scratchAt + k.scratchFloats(n, rows) * 4);
      const triples = new Int32Array(k.memory.buffer, tokensAt, n * 3); // (row, position, id) per new token
      const last = new Int32Array(k.memory.buffer, lastAt, rows);
      let t = 0;
      for (let b = 0; b < rows; b++) {
        const row = tokens[b];
        for (let j = 0; j < row.length; j++, t++) {
          const id = row[j];
          if (!Number.isInteger(id) || id < 0 || id >= V) throw new Error(`feed: token ${id} is outside the vocabulary (0…${V - 1})`);
          triples[3 * t] = b;
          triples[3 * t + 1] = lengths[b] + j;
          triples[3 * t + 2] = id;
        }
        last[b] = t - 1;
      }
      k.feed(weightsAt, cacheAt, tokensAt, n, lastAt, rows, scratchAt, probsAt, temperature);
      for (let b = 0; b < rows; b++) lengths[b] += tokens[b].length;
      return new Float32Array(k.memory.buffer, probsAt, rows * V).slice();
    },
    select(rows) {
      if (disposed) throw new Error('select: the decoding session was disposed');
      if (rows.some((r) => !Number.isInteger(r) || r < 0 || r >= lengths.length)) throw new Error(`select: rows must be indices below ${lengths.length}`);
      if (rowCapacity > 0) {
        if (rows.length > rowCapacity) throw new Error(`select: ${rows.length} rows exceed the session's ${rowCapacity}`);
        const fromAt = workAt;
        ensureBytes(fromAt + rows.length * 4);
        new Int32Array(k.memory.buffer, fromAt, rows.length).set(rows);
        k.selectRows(cacheAt, fromAt, rows.length, spareAt);
        [cacheAt, spareAt] = [spareAt, cacheAt];
      }
      lengths = rows.map((r) => lengths[r]);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (idleInstances.length < MAX_IDLE_INSTANCES && k.memory.buffer.byteLength <= MAX_POOLED_BYTES) idleInstances.push(instance);
    },
  };
}
