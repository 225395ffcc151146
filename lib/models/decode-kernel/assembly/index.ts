// The tiny LM's decoding step as one WebAssembly call (AssemblyScript, compiled by `npm run build:kernel` into
// ../wasm.ts). Same arithmetic as TinyLM.forward / beginDecoding (lib/models/tiny-lm.ts), op for op: pre-LN GPT blocks
// (LayerNorm, fused q|k|v projection, causal softmax attention, output projection, ReLU MLP, residual adds), a final
// LayerNorm, the LM head, then softmax(logits / temperature). Why it exists: in tfjs a decoding step is ~138 small
// kernels (npm run bench counts them) whose dispatch costs several times their arithmetic; here the step is one call.
//
// This module only computes. The host (../session.ts) owns the memory layout: it grows the memory, writes the weights
// (in the order weightFloats() documents), the new tokens, and reads the probabilities back. No allocation, no GC.
// Requires d_model, d_ff and head_dim to be multiples of 4 (whole SIMD lanes); the host checks before using it.

let D: i32 = 0; // d_model
let H: i32 = 0; // n_heads
let HD: i32 = 0; // head_dim = D / H
let L: i32 = 0; // n_layers
let F: i32 = 0; // d_ff
let V: i32 = 0; // vocab_size
let VP: i32 = 0; // vocab_size rounded up to a multiple of 4: the head's weight and bias are zero-padded to it
let C: i32 = 0; // context_length
let CP: i32 = 0; // context_length rounded up to a multiple of 4: keys are stored transposed, [D, CP]
let W: i32 = 0; // sliding_window: a token attends to slots pos − W + 1 … pos; 0 means every slot from 0

/** Sets the sliding window (0: none). Call after configure, which resets it: a reused instance keeps no old window. */
export function setWindow(window: i32): void {
  W = window;
}

/** Sets the shapes. Returns the number of floats the weights take (see weight layout below). */
export function configure(dModel: i32, nHeads: i32, nLayers: i32, dFf: i32, vocab: i32, context: i32): i32 {
  D = dModel;
  H = nHeads;
  HD = dModel / nHeads;
  L = nLayers;
  F = dFf;
  V = vocab;
  VP = (vocab + 3) & ~3;
  C = context;
  CP = (context + 3) & ~3;
  W = 0;
  return weightFloats();
}

// Weight layout, in floats: tok_emb [V, D], pos_emb [C, D], then per layer
//   ln1.g [D], ln1.b [D], qkv.W [D, 3D], qkv.b [3D], out.W [D, D], out.b [D], ln2.g [D], ln2.b [D],
//   fc1.W [D, F], fc1.b [F], fc2.W [F, D], fc2.b [D],
// then ln_f.g [D], ln_f.b [D], head.W [D, VP], head.b [VP].
function layerFloats(): i32 {
  return 2 * D + D * 3 * D + 3 * D + D * D + D + 2 * D + D * F + F + F * D + D;
}
function weightFloats(): i32 {
  return (V + C) * D + L * layerFloats() + 2 * D + D * VP + VP;
}

/**
 * Floats of key/value cache per row: per layer, the keys transposed [D, CP] (so that one SIMD multiply scores four
 * positions), then the values [C, D].
 */
export function cacheFloatsPerRow(): i32 {
  return L * (D * CP + C * D);
}

/** Floats of scratch for n new tokens and `rows` rows (see feed). */
export function scratchFloats(n: i32, rows: i32): i32 {
  return n * (D + D + 3 * D + D + F) + rows * (D + D + VP) + CP + 4 * D;
}

@inline function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

/**
 * e^x in each lane, to ~1 ulp over the range softmax uses (x ≤ 0): x = n·ln2 + r with |r| ≤ ln2/2, e^r by its Taylor
 * polynomial to r⁶ (relative error < 2e-7), 2^n written into the exponent bits. Lanes below −87 give exactly 0, as
 * the tfjs path's −1e9 mask does.
 */
@inline function expLanes(x: v128): v128 {
  const under = f32x4.lt(x, f32x4.splat(-87.0));
  const xc = f32x4.min(f32x4.max(x, f32x4.splat(-87.0)), f32x4.splat(88.0));
  const n = f32x4.nearest(f32x4.mul(xc, f32x4.splat(1.4426950408889634)));
  let r = f32x4.sub(xc, f32x4.mul(n, f32x4.splat(0.693359375)));
  r = f32x4.sub(r, f32x4.mul(n, f32x4.splat(-2.12194440e-4)));
  let p = f32x4.splat(1.0 / 720.0);
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 120.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 24.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 6.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(0.5));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  const scale = i32x4.shl(i32x4.add(i32x4.trunc_sat_f32x4_s(n), i32x4.splat(127)), 23);
  return v128.andnot(f32x4.mul(p, scale), under);
}

@inline function hmax(v: v128): f32 {
  return Mathf.max(Mathf.max(f32x4.extract_lane(v, 0), f32x4.extract_lane(v, 1)), Mathf.max(f32x4.extract_lane(v, 2), f32x4.extract_lane(v, 3)));
}

@inline function finish(p: usize, acc: v128, mode: i32): void {
  if (mode == 1) acc = f32x4.max(acc, f32x4.splat(0));
  else if (mode == 2) acc = f32x4.add(v128.load(p), acc);
  v128.store(p, acc);
}

/**
 * out[n, m] (mode 0) = x[n, k]·w[k, m] + b[m]; mode 1: relu of it; mode 2: out += it (a residual add).
 * m must be a multiple of 4. Blocks of 4 rows × 8 columns keep 8 accumulators and 2 weight vectors in registers.
 */
function dense(x: usize, n: i32, k: i32, w: usize, b: usize, m: i32, out: usize, mode: i32): void {
  const xRow: usize = <usize>k << 2;
  const wRow: usize = <usize>m << 2;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const x0 = x + <usize>i * xRow;
    const x1 = x0 + xRow;
    const x2 = x1 + xRow;
    const x3 = x2 + xRow;
    const o0 = out + <usize>i * wRow;
    let j = 0;
    for (; j + 8 <= m; j += 8) {
      const bj = b + (<usize>j << 2);
      let a00 = v128.load(bj);
      let a01 = v128.load(bj, 16);
      let a10 = a00;
      let a11 = a01;
      let a20 = a00;
      let a21 = a01;
      let a30 = a00;
      let a31 = a01;
      let wp = w + (<usize>j << 2);
      for (let kk = 0; kk < k; kk++) {
        const kb: usize = <usize>kk << 2;
        const w0 = v128.load(wp);
        const w1 = v128.load(wp, 16);
        const s0 = v128.load32_splat(x0 + kb);
        const s1 = v128.load32_splat(x1 + kb);
        const s2 = v128.load32_splat(x2 + kb);
        const s3 = v128.load32_splat(x3 + kb);
        a00 = f32x4.add(a00, f32x4.mul(s0, w0));
        a01 = f32x4.add(a01, f32x4.mul(s0, w1));
        a10 = f32x4.add(a10, f32x4.mul(s1, w0));
        a11 = f32x4.add(a11, f32x4.mul(s1, w1));
        a20 = f32x4.add(a20, f32x4.mul(s2, w0));
        a21 = f32x4.add(a21, f32x4.mul(s2, w1));
        a30 = f32x4.add(a30, f32x4.mul(s3, w0));
        a31 = f32x4.add(a31, f32x4.mul(s3, w1));
        wp += wRow;
      }
      const p = o0 + (<usize>j << 2);
      finish(p, a00, mode);
      finish(p + 16, a01, mode);
      finish(p + wRow, a10, mode);
      finish(p + wRow + 16, a11, mode);
      finish(p + 2 * wRow, a20, mode);
      finish(p + 2 * wRow + 16, a21, mode);
      finish(p + 3 * wRow, a30, mode);
      finish(p + 3 * wRow + 16, a31, mode);
    }
    for (; j < m; j += 4) {
      let a0 = v128.load(b + (<usize>j << 2));
      let a1 = a0;
      let a2 = a0;
      let a3 = a0;
      let wp = w + (<usize>j << 2);
      for (let kk = 0; kk < k; kk++) {
        const kb: usize = <usize>kk << 2;
        const w0 = v128.load(wp);
        a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(x0 + kb), w0));
        a1 = f32x4.add(a1, f32x4.mul(v128.load32_splat(x1 + kb), w0));
        a2 = f32x4.add(a2, f32x4.mul(v128.load32_splat(x2 + kb), w0));
        a3 = f32x4.add(a3, f32x4.mul(v128.load32_splat(x3 + kb), w0));
        wp += wRow;
      }
      const p = o0 + (<usize>j << 2);
      finish(p, a0, mode);
      finish(p + wRow, a1, mode);
      finish(p + 2 * wRow, a2, mode);
      finish(p + 3 * wRow, a3, mode);
    }
  }
  for (; i < n; i++) {
    const x0 = x + <usize>i * xRow;
    const o0 = out + <usize>i * wRow;
    for (let j = 0; j < m; j += 4) {
      let a0 = v128.load(b + (<usize>j << 2));
      let wp = w + (<usize>j << 2);
      for (let kk = 0; kk < k; kk++) {
        a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(x0 + (<usize>kk << 2)), v128.load(wp)));
        wp += wRow;
      }
      finish(o0 + (<usize>j << 2), a0, mode);
    }
  }
}

/** out[i] = (x[i] − mean)/√(var + 1e-5)·g + b for each of n rows of D floats (as ops.ts layerNorm). */
function layerNorm(x: usize, n: i32, g: usize, b: usize, out: usize): void {
  const row: usize = <usize>D << 2;
  const invD: f32 = 1 / <f32>D;
  for (let i = 0; i < n; i++) {
    const xi = x + <usize>i * row;
    const oi = out + <usize>i * row;
    let s = f32x4.splat(0);
    for (let c = 0; c < D; c += 4) s = f32x4.add(s, v128.load(xi + (<usize>c << 2)));
    const mean = f32x4.splat(hsum(s) * invD);
    let q = f32x4.splat(0);
    for (let c = 0; c < D; c += 4) {
      const xc = f32x4.sub(v128.load(xi + (<usize>c << 2)), mean);
      q = f32x4.add(q, f32x4.mul(xc, xc));
    }
    const inv = f32x4.splat(1 / Mathf.sqrt(hsum(q) * invD + 1e-5));
    for (let c = 0; c < D; c += 4) {
      const o: usize = <usize>c << 2;
      const xc = f32x4.sub(v128.load(xi + o), mean);
      v128.store(oi + o, f32x4.add(f32x4.mul(f32x4.mul(xc, inv), v128.load(g + o)), v128.load(b + o)));
    }
  }
}

/**
 * Runs n new tokens through the model and writes, for each of `rows` rows, the next-token probabilities after its
 * last new token: probs[rows, V] = softmax(logits / temperature) (temperature 0: softmax(logits), as generate's
 * greedy path reads them).
 *   weights: the layout above. cache: rows × cacheFloatsPerRow() floats; each token's key and value are written
 *   to its row's slot `pos` before attending, and a token attends to slots 0 … pos of its own row.
 *   tokens: i32 [n, 3] = (row, position, token id), a row's tokens in increasing position.
 *   last: i32 [rows], the index in `tokens` of each row's last new token. scratch: scratchFloats(n, rows) floats.
 */
export function feed(
  weights: usize,
  cache: usize,
  tokens: usize,
  n: i32,
  last: usize,
  rows: i32,
  scratch: usize,
  probs: usize,
  temperature: f32,
): void {
  const row: usize = <usize>D << 2;
  const x = scratch; // residual stream [n, D]
  const h = x + <usize>n * row; // a LayerNorm's output [n, D]
  const qkv = h + <usize>n * row; // [n, 3D]
  const y = qkv + <usize>n * 3 * row; // attention output [n, D]
  const ff = y + <usize>n * row; // [n, F]
  const lastX = ff + ((<usize>n * <usize>F) << 2); // [rows, D]
  const lastH = lastX + <usize>rows * row; // [rows, D]
  const logits = lastH + <usize>rows * row; // [rows, VP]
  const scores = logits + ((<usize>rows * <usize>VP) << 2); // [CP]
  const qSplat = scores + ((<usize>CP) << 2); // [HD] vectors of four lanes: one head's query, each lane splatted

  // Embeddings: token row + position row.
  const tokEmb = weights;
  const posEmb = tokEmb + ((<usize>V * <usize>D) << 2);
  for (let t = 0; t < n; t++) {
    const pos = load<i32>(tokens + ((<usize>(3 * t + 1)) << 2));
    const id = load<i32>(tokens + ((<usize>(3 * t + 2)) << 2));
    const te = tokEmb + <usize>id * row;
    const pe = posEmb + <usize>pos * row;
    const xt = x + <usize>t * row;
    for (let c = 0; c < D; c += 4) {
      const o: usize = <usize>c << 2;
      v128.store(xt + o, f32x4.add(v128.load(te + o), v128.load(pe + o)));
    }
  }

  const scale: f32 = 1 / Mathf.sqrt(<f32>HD);
  const keysBytes: usize = (<usize>D * <usize>CP) << 2; // one layer's keys of one row, [D, CP]
  const layerCache: usize = keysBytes + <usize>C * row; // … then its values, [C, D]
  const rowCache: usize = <usize>L * layerCache;
  let wl = posEmb + ((<usize>C * <usize>D) << 2);
  for (let l = 0; l < L; l++) {
    const ln1g = wl;
    const ln1b = ln1g + row;
    const qkvW = ln1b + row;
    const qkvB = qkvW + <usize>D * 3 * row;
    const outW = qkvB + 3 * row;
    const outB = outW + <usize>D * row;
    const ln2g = outB + row;
    const ln2b = ln2g + row;
    const fc1W = ln2b + row;
    const fc1B = fc1W + ((<usize>D * <usize>F) << 2);
    const fc2W = fc1B + (<usize>F << 2);
    const fc2B = fc2W + <usize>F * row;
    wl = fc2B + row;

    layerNorm(x, n, ln1g, ln1b, h);
    dense(h, n, D, qkvW, qkvB, 3 * D, qkv, 0);
    // Write each token's key and value into its row's slot first: tokens of one chunk see each other causally.
    for (let t = 0; t < n; t++) {
      const r = load<i32>(tokens + ((<usize>(3 * t)) << 2));
      const pos = load<i32>(tokens + ((<usize>(3 * t + 1)) << 2));
      const keysT = cache + <usize>r * rowCache + <usize>l * layerCache; // [D, CP]
      const values = keysT + keysBytes; // [C, D]
      const src = qkv + <usize>t * 3 * row;
      for (let c = 0; c < D; c++) store<f32>(keysT + ((<usize>(c * CP + pos)) << 2), load<f32>(src + row + (<usize>c << 2)));
      memory.copy(values + <usize>pos * row, src + 2 * row, row);
    }
    for (let t = 0; t < n; t++) {
      const r = load<i32>(tokens + ((<usize>(3 * t)) << 2));
      const pos = load<i32>(tokens + ((<usize>(3 * t + 1)) << 2));
      const keysT = cache + <usize>r * rowCache + <usize>l * layerCache;
      const values = keysT + keysBytes;
      const q = qkv + <usize>t * 3 * row;
      const yt = y + <usize>t * row;
      const blocks = (pos + 4) >> 2; // slots 0 … pos in blocks of four; lanes past pos are masked
      const tail = scores + ((<usize>(4 * blocks)) << 2);
      for (let hh = 0; hh < H; hh++) {
        const off: usize = <usize>(hh * HD) << 2;
        // q·scale with each lane splatted once, so the score loop below multiplies whole vectors.
        for (let c = 0; c < HD; c++) v128.store(qSplat + (<usize>c << 4), f32x4.splat(load<f32>(q + off + (<usize>c << 2)) * scale));
        // Scores for four slots at a time: keys are stored transposed.
        let maxv = f32x4.splat(-Infinity);
        for (let bk = 0; bk < blocks; bk++) {
          let acc = f32x4.splat(0);
          let kp = keysT + ((<usize>(hh * HD * CP + 4 * bk)) << 2);
          for (let c = 0; c < HD; c++) {
            acc = f32x4.add(acc, f32x4.mul(v128.load(qSplat + (<usize>c << 4)), v128.load(kp)));
            kp += <usize>CP << 2;
          }
          v128.store(scores + ((<usize>(4 * bk)) << 2), acc);
        }
        for (let s = pos + 1; s < 4 * blocks; s++) store<f32>(scores + (<usize>s << 2), -Infinity);
        // Slots that have left the sliding window weigh exactly 0 after the softmax, as the tfjs mask's −1e9 does.
        if (W > 0) for (let s = 0; s <= pos - W; s++) store<f32>(scores + (<usize>s << 2), -Infinity);
        for (let p = scores; p < tail; p += 16) maxv = f32x4.max(maxv, v128.load(p));
        const max = f32x4.splat(hmax(maxv));
        let sumv = f32x4.splat(0);
        for (let p = scores; p < tail; p += 16) {
          const e = expLanes(f32x4.sub(v128.load(p), max));
          v128.store(p, e);
          sumv = f32x4.add(sumv, e);
        }
        const inv = f32x4.splat(1 / hsum(sumv));
        // y = Σ_s e_s·v_s / Σ_s e_s, eight (else four) lanes of the head at a time, accumulated in registers.
        let c = 0;
        for (; c + 8 <= HD; c += 8) {
          let a0 = f32x4.splat(0);
          let a1 = f32x4.splat(0);
          let vs = values + off + (<usize>c << 2);
          for (let s = 0; s <= pos; s++) {
            const e = v128.load32_splat(scores + (<usize>s << 2));
            a0 = f32x4.add(a0, f32x4.mul(e, v128.load(vs)));
            a1 = f32x4.add(a1, f32x4.mul(e, v128.load(vs, 16)));
            vs += row;
          }
          v128.store(yt + off + (<usize>c << 2), f32x4.mul(a0, inv));
          v128.store(yt + off + (<usize>c << 2), f32x4.mul(a1, inv), 16);
        }
        for (; c < HD; c += 4) {
          let a0 = f32x4.splat(0);
          let vs = values + off + (<usize>c << 2);
          for (let s = 0; s <= pos; s++) {
            a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(scores + (<usize>s << 2)), v128.load(vs)));
            vs += row;
          }
          v128.store(yt + off + (<usize>c << 2), f32x4.mul(a0, inv));
        }
      }
    }
    dense(y, n, D, outW, outB, D, x, 2);
    layerNorm(x, n, ln2g, ln2b, h);
    dense(h, n, D, fc1W, fc1B, F, ff, 1);
    dense(ff, n, F, fc2W, fc2B, D, x, 2);
  }

  // Only each row's last new token predicts anything: gather it, then the final LayerNorm and the head.
  const lnFg = wl;
  const lnFb = lnFg + row;
  const headW = lnFb + row;
  const headB = headW + ((<usize>D * <usize>VP) << 2);
  for (let r = 0; r < rows; r++) {
    const t = load<i32>(last + (<usize>r << 2));
    memory.copy(lastX + <usize>r * row, x + <usize>t * row, row);
  }
  layerNorm(lastX, rows, lnFg, lnFb, lastH);
  dense(lastH, rows, D, headW, headB, VP, logits, 0);
  const lanes: usize = <usize>VP << 2;
  for (let r = 0; r < rows; r++) {
    const lr = logits + <usize>r * lanes;
    const end = lr + lanes;
    for (let v = V; v < VP; v++) store<f32>(lr + (<usize>v << 2), -Infinity); // padding lanes get probability 0
    let maxv = f32x4.splat(-Infinity);
    for (let p = lr; p < end; p += 16) {
      const z = temperature > 0 ? f32x4.div(v128.load(p), f32x4.splat(temperature)) : v128.load(p);
      v128.store(p, z);
      maxv = f32x4.max(maxv, z);
    }
    const max = f32x4.splat(hmax(maxv));
    let sumv = f32x4.splat(0);
    for (let p = lr; p < end; p += 16) {
      const e = expLanes(f32x4.sub(v128.load(p), max));
      v128.store(p, e);
      sumv = f32x4.add(sumv, e);
    }
    const sum = f32x4.splat(hsum(sumv));
    for (let p = lr; p < end; p += 16) v128.store(p, f32x4.div(v128.load(p), sum));
    memory.copy(probs + ((<usize>(r * V)) << 2), lr, <usize>V << 2);
  }
}

/** Keeps rows `from[i]` of the cache as rows i (i < count), writing them to another buffer `to`. */
export function selectRows(cache: usize, from: usize, count: i32, to: usize): void {
  const bytes: usize = <usize>cacheFloatsPerRow() << 2;
  for (let i = 0; i < count; i++) {
    const r = load<i32>(from + (<usize>i << 2));
    memory.copy(to + <usize>i * bytes, cache + <usize>r * bytes, bytes);
  }
}

/** Where the host may start laying out its buffers (after this module's static data). */
export function heapBase(): usize {
  return __heap_base;
}
