// Causal self-attention for one layer, forward and backward, in three calls, with tfjs-wasm's numbers bit for bit
// (AssemblyScript, compiled by `npm run build:kernel` into ../wasm.ts). The model computes (lib/models/ops.ts):
//   q, k, v = the heads of qkv [B·S, 3D] (a reshape, a transpose to [3H, B, S, hd] and a split)
//   P = softmax(q·kᵀ · scale + mask)          y = P·v, its heads merged back to [B·S, D] (a transpose and a reshape)
// and autodiff's backward pass for it (ops.ts attentionWithGrad): dP = dy·vᵀ, dS = (dP ⊙ P − Σⱼ(dP ⊙ P)·P) · scale,
// dq = dS·k, dk = dSᵀ·q, dv = Pᵀ·dy, the three written back into qkv's layout. Stock that is some twenty tfjs kernels
// a layer: four Transposes, a split and a concat that only move data, the scale, the mask and the softmax gradient as
// five elementwise kernels, and six batched products. Here the data moves inside the kernel, the products are the
// batched matmul kernel's sums in the same order (../../matmul-kernel/assembly: its code for any shape; for the common
// shapes, the tiles at the end of this file, which skip the masked terms), and the elementwise steps are the same
// float32 operations in the same order. The softmax is tfjs-wasm's (XNNPACK's) to the bit, in the first kernel.
//
// Imports tfjs-wasm's memory (the host, ../attention.ts, passes byte offsets on that heap). No static data, no allocation.
import { BLOCK, batchMatMul, scratchFloats as matMulScratch } from '../../matmul-kernel/assembly/index';

/**
 * Floats of scratch one call needs: five [S, hd] heads, two [S, S] blocks and the products' own repacking, or for the
 * common shapes (below) a transposed head [hd, S8], a block [S, S8] and each row's span.
 */
export function scratchFloats(S: i32, hd: i32): i32 {
  const widest = max(S, hd);
  const S8 = (S + 7) & ~7;
  return max(5 * S * hd + 2 * S * S + matMulScratch(widest, widest), hd * S8 + S * S8 + 2 * S);
}

/** Copies n floats (SIMD, then the rest one by one). */
@inline function copyFloats(to: usize, from: usize, n: i32): void {
  let e = 0;
  for (; e + 4 <= n; e += 4) v128.store(to + <usize>e * 4, v128.load(from + <usize>e * 4));
  for (; e < n; e++) store<f32>(to + <usize>e * 4, load<f32>(from + <usize>e * 4));
}

/** to [S, hd] ← the S rows of one head: from + offset floats into each row of `stride` floats. */
@inline function gatherHead(from: usize, stride: i32, offset: i32, to: usize, S: i32, hd: i32): void {
  for (let i = 0; i < S; i++) copyFloats(to + <usize>(i * hd) * 4, from + <usize>(i * stride + offset) * 4, hd);
}

/** The S rows of one head written back: into + offset floats into each row of `stride` floats ← from [S, hd]. */
@inline function scatterHead(from: usize, into: usize, stride: i32, offset: i32, S: i32, hd: i32): void {
  for (let i = 0; i < S; i++) copyFloats(into + <usize>(i * stride + offset) * 4, from + <usize>(i * hd) * 4, hd);
}

/** probabilities() (below) for any shape: the products on the batched matmul kernel's code. */
function probabilitiesAnyShape(qkv: usize, mask: usize, out: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  const D = H * hd;
  const q = scratch;
  const k = q + <usize>(S * hd) * 4;
  const rest = k + <usize>(S * hd) * 4;
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      const rows = qkv + <usize>(b * S * 3 * D) * 4;
      gatherHead(rows, 3 * D, h * hd, q, S, hd);
      gatherHead(rows, 3 * D, D + h * hd, k, S, hd);
      const block = out + <usize>((h * B + b) * S * S) * 4;
      batchMatMul(q, k, block, rest, 1, S, hd, S, false, true);
      for (let e = 0; e < S * S; e++) {
        const p = block + <usize>e * 4;
        store<f32>(p, load<f32>(p) * scale + load<f32>(mask + <usize>e * 4));
      }
      for (let i = 0; i < S; i++) softmaxRow(block + <usize>(i * S) * 4, S);
    }
  }
}

/** mix() (below) for any shape: the products on the batched matmul kernel's code. */
function mixAnyShape(qkv: usize, probs: usize, y: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32): void {
  const D = H * hd;
  const v = scratch;
  const att = v + <usize>(S * hd) * 4;
  const rest = att + <usize>(S * hd) * 4;
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      gatherHead(qkv + <usize>(b * S * 3 * D) * 4, 3 * D, 2 * D + h * hd, v, S, hd);
      batchMatMul(probs + <usize>((h * B + b) * S * S) * 4, v, att, rest, 1, S, S, hd, false, false);
      scatterHead(att, y + <usize>(b * S * D) * 4, D, h * hd, S, hd);
    }
  }
}

/** grad() (below) for any shape: the products on the batched matmul kernel's code. */
function gradAnyShape(dy: usize, qkv: usize, probs: usize, dqkv: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  const D = H * hd;
  const head = <usize>(S * hd) * 4;
  const q = scratch;
  const k = q + head;
  const v = k + head;
  const g = v + head; // this head's dy
  const part = g + head; // each of dq, dk, dv in turn, before it is written back
  const dP = part + head;
  const dS = dP + <usize>(S * S) * 4;
  const rest = dS + <usize>(S * S) * 4;
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      const rows = qkv + <usize>(b * S * 3 * D) * 4;
      const dRows = dqkv + <usize>(b * S * 3 * D) * 4;
      const P = probs + <usize>((h * B + b) * S * S) * 4;
      gatherHead(rows, 3 * D, h * hd, q, S, hd);
      gatherHead(rows, 3 * D, D + h * hd, k, S, hd);
      gatherHead(rows, 3 * D, 2 * D + h * hd, v, S, hd);
      gatherHead(dy + <usize>(b * S * D) * 4, D, h * hd, g, S, hd);
      batchMatMul(g, v, dP, rest, 1, S, hd, S, false, true); // dP = dy·vᵀ
      for (let i = 0; i < S; i++) {
        // tf.sum(dP ⊙ P, −1): 0, then each term of the row in order.
        let rowSum: f32 = 0;
        for (let j = 0; j < S; j++) {
          const e = <usize>(i * S + j) * 4;
          const t = load<f32>(dP + e) * load<f32>(P + e);
          store<f32>(dS + e, t);
          rowSum += t;
        }
        for (let j = 0; j < S; j++) {
          const e = <usize>(i * S + j) * 4;
          store<f32>(dS + e, (load<f32>(dS + e) - rowSum * load<f32>(P + e)) * scale);
        }
      }
      batchMatMul(dS, k, part, rest, 1, S, S, hd, false, false); // dq = dS·k
      scatterHead(part, dRows, 3 * D, h * hd, S, hd);
      batchMatMul(dS, q, part, rest, 1, S, S, hd, true, false); // dk = dSᵀ·q
      scatterHead(part, dRows, 3 * D, D + h * hd, S, hd);
      batchMatMul(P, g, part, rest, 1, S, S, hd, true, false); // dv = Pᵀ·dy
      scatterHead(part, dRows, 3 * D, 2 * D + h * hd, S, hd);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The common shapes (heads a multiple of 8 wide and sequences of at most 48, so that every sum of the products is one
// 48-term block): the same sums without the products' repacking, and without terms that cannot change them. A
// probability that is exactly 0 (every masked position after the softmax) makes its terms ±0 in P·v, in dS (dP·0 − Σ·0)
// and so in dS·k, dSᵀ·q and Pᵀ·dy; a sum that starts at +0 is never −0, and x + ±0 = x for every other x, so leaving
// out a run of such terms changes no bit (for finite activations: 0·∞ would be NaN). Each row i of a block has a span
// lo_i…hi_i, its first and last nonzero probability (0…i under the causal mask); four rows at a time sum over the union
// of their spans, about half the terms of a causal block.

/** Whether the loops below apply. */
@inline function commonShape(S: i32, hd: i32): bool {
  return (hd & 7) == 0 && hd <= BLOCK && S <= BLOCK;
}

/**
 * c[r, 0…8) = Σ_{t = t0…t1−1} a(r, t)·b[t, 0…8) for the `rows` rows r (1…4), each lane from +0 in order of t, a multiply
 * then an add per term (the batched matmul kernel's sum over one 48-term block). a(r, t) is the float at a + r·aR + t·aT
 * bytes; b's rows are bRow bytes apart, c's cRow.
 */
@inline function tile(a: usize, aR: usize, aT: usize, t0: i32, t1: i32, b: usize, bRow: usize, c: usize, cRow: usize, rows: i32): void {
  if (rows == 4) {
    let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
    let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
    let pa = a + <usize>t0 * aT;
    let pb = b + <usize>t0 * bRow;
    for (let t = t0; t < t1; t++) {
      const b0 = v128.load(pb);
      const b1 = v128.load(pb, 16);
      const x0 = f32x4.splat(load<f32>(pa));
      const x1 = f32x4.splat(load<f32>(pa + aR));
      const x2 = f32x4.splat(load<f32>(pa + 2 * aR));
      const x3 = f32x4.splat(load<f32>(pa + 3 * aR));
      c00 = f32x4.add(c00, f32x4.mul(x0, b0));
      c01 = f32x4.add(c01, f32x4.mul(x0, b1));
      c10 = f32x4.add(c10, f32x4.mul(x1, b0));
      c11 = f32x4.add(c11, f32x4.mul(x1, b1));
      c20 = f32x4.add(c20, f32x4.mul(x2, b0));
      c21 = f32x4.add(c21, f32x4.mul(x2, b1));
      c30 = f32x4.add(c30, f32x4.mul(x3, b0));
      c31 = f32x4.add(c31, f32x4.mul(x3, b1));
      pa += aT;
      pb += bRow;
    }
    v128.store(c, c00);
    v128.store(c, c01, 16);
    v128.store(c + cRow, c10);
    v128.store(c + cRow, c11, 16);
    v128.store(c + 2 * cRow, c20);
    v128.store(c + 2 * cRow, c21, 16);
    v128.store(c + 3 * cRow, c30);
    v128.store(c + 3 * cRow, c31, 16);
    return;
  }
  for (let r = 0; r < rows; r++) {
    let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
    let pa = a + <usize>r * aR + <usize>t0 * aT;
    let pb = b + <usize>t0 * bRow;
    for (let t = t0; t < t1; t++) {
      const x = f32x4.splat(load<f32>(pa));
      c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
      c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
      pa += aT;
      pb += bRow;
    }
    v128.store(c + <usize>r * cRow, c0);
    v128.store(c + <usize>r * cRow, c1, 16);
  }
}

/** lo[i], hi[i] ← the first and last j with row i of P [S, S] ≠ 0 (NaN counts as nonzero); lo > hi for a row of zeros. */
function spansOf(P: usize, S: i32, lo: usize, hi: usize): void {
  for (let i = 0; i < S; i++) {
    const row = P + <usize>(i * S) * 4;
    let first = 0;
    while (first < S && load<f32>(row + <usize>first * 4) == 0) first++;
    let last = S - 1;
    while (last >= first && load<f32>(row + <usize>last * 4) == 0) last--;
    store<i32>(lo + <usize>i * 4, first);
    store<i32>(hi + <usize>i * 4, last);
  }
}

/** The union of the spans of rows i0…i1−1, as first | (last + 1) << 16 (empty: first 0x7fff, last + 1 = 0). */
@inline function unionOfRows(lo: usize, hi: usize, i0: i32, i1: i32): i32 {
  let first = 0x7fff;
  let last = -1;
  for (let i = i0; i < i1; i++) {
    const l = load<i32>(lo + <usize>i * 4);
    const h = load<i32>(hi + <usize>i * 4);
    if (l <= h) {
      first = min(first, l);
      last = max(last, h);
    }
  }
  return first | ((last + 1) << 16); // last + 1 ≥ 0
}

/** The rows whose spans meet columns j0…j1−1, as first | (last + 1) << 16 (empty: first ≥ last + 1). */
@inline function rowsMeeting(lo: usize, hi: usize, S: i32, j0: i32, j1: i32): i32 {
  let first = S;
  let end = 0;
  for (let i = 0; i < S; i++) {
    if (load<i32>(lo + <usize>i * 4) < j1 && load<i32>(hi + <usize>i * 4) >= j0) {
      if (first == S) first = i;
      end = i + 1;
    }
  }
  return first | (end << 16);
}

/** to [hd, S8] ← one head's S rows (from + offset floats into rows of `stride` floats), transposed; zero past S. */
@inline function transposeHead(from: usize, stride: i32, offset: i32, to: usize, S: i32, S8: i32, hd: i32): void {
  for (let d = 0; d < hd; d++) {
    const row = to + <usize>(d * S8) * 4;
    for (let j = 0; j < S; j++) store<f32>(row + <usize>j * 4, load<f32>(from + <usize>(j * stride + offset + d) * 4));
    for (let j = S; j < S8; j++) store<f32>(row + <usize>j * 4, 0);
  }
}

function probabilitiesCommon(qkv: usize, mask: usize, out: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  const D = H * hd;
  const S8 = (S + 7) & ~7;
  const kT = scratch; // [hd, S8]
  const raw = kT + <usize>(hd * S8) * 4; // q·kᵀ [S, S8]
  const qRow = <usize>(3 * D) * 4;
  const scaleV = f32x4.splat(scale);
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      const rows = qkv + <usize>(b * S * 3 * D) * 4;
      transposeHead(rows, 3 * D, D + h * hd, kT, S, S8, hd);
      const q = rows + <usize>(h * hd) * 4;
      for (let i0 = 0; i0 < S; i0 += 4) {
        for (let j0 = 0; j0 < S; j0 += 8) tile(q + <usize>i0 * qRow, qRow, 4, 0, hd, kT + <usize>j0 * 4, <usize>S8 * 4, raw + <usize>(i0 * S8 + j0) * 4, <usize>S8 * 4, min(4, S - i0));
      }
      const o = out + <usize>((h * B + b) * S * S) * 4;
      for (let i = 0; i < S; i++) {
        let j = 0;
        for (; j + 4 <= S; j += 4) {
          const e = <usize>(i * S + j) * 4;
          v128.store(o + e, f32x4.add(f32x4.mul(v128.load(raw + <usize>(i * S8 + j) * 4), scaleV), v128.load(mask + e)));
        }
        for (; j < S; j++) {
          const e = <usize>(i * S + j) * 4;
          store<f32>(o + e, load<f32>(raw + <usize>(i * S8 + j) * 4) * scale + load<f32>(mask + e));
        }
        softmaxRow(o + <usize>(i * S) * 4, S);
      }
    }
  }
}

function mixCommon(qkv: usize, probs: usize, y: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32): void {
  const D = H * hd;
  const lo = scratch;
  const hi = lo + <usize>S * 4;
  const vRow = <usize>(3 * D) * 4;
  const yRow = <usize>D * 4;
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      const P = probs + <usize>((h * B + b) * S * S) * 4;
      const v = qkv + <usize>(b * S * 3 * D + 2 * D + h * hd) * 4;
      const yRows = y + <usize>(b * S * D + h * hd) * 4;
      spansOf(P, S, lo, hi);
      for (let i0 = 0; i0 < S; i0 += 4) {
        const rows = min(4, S - i0);
        const span = unionOfRows(lo, hi, i0, i0 + rows);
        const first = span & 0xffff;
        const end = max(first, span >>> 16);
        for (let d0 = 0; d0 < hd; d0 += 8) tile(P + <usize>(i0 * S) * 4, <usize>S * 4, 4, first, end, v + <usize>d0 * 4, vRow, yRows + <usize>i0 * yRow + <usize>d0 * 4, yRow, rows);
      }
    }
  }
}

function gradCommon(dy: usize, qkv: usize, probs: usize, dqkv: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  const D = H * hd;
  const S8 = (S + 7) & ~7;
  const vT = scratch; // [hd, S8]
  const dS = vT + <usize>(hd * S8) * 4; // [S, S8]: dP, then dS, within each row's span; zeroed elsewhere below
  const lo = dS + <usize>(S * S8) * 4;
  const hi = lo + <usize>S * 4;
  const qkvRow = <usize>(3 * D) * 4;
  const gRow = <usize>D * 4;
  const sRow = <usize>S8 * 4;
  for (let h = 0; h < H; h++) {
    for (let b = 0; b < B; b++) {
      const rows = qkv + <usize>(b * S * 3 * D) * 4;
      const dRows = dqkv + <usize>(b * S * 3 * D) * 4;
      const q = rows + <usize>(h * hd) * 4;
      const k = q + <usize>D * 4;
      const g = dy + <usize>(b * S * D + h * hd) * 4; // this head's dy
      const P = probs + <usize>((h * B + b) * S * S) * 4;
      transposeHead(rows, 3 * D, 2 * D + h * hd, vT, S, S8, hd);
      spansOf(P, S, lo, hi);
      // dP = dy·vᵀ over each four rows' spans, in whole tiles of eight columns.
      for (let i0 = 0; i0 < S; i0 += 4) {
        const rowCount = min(4, S - i0);
        const span = unionOfRows(lo, hi, i0, i0 + rowCount);
        const end = span >>> 16;
        for (let j0 = (span & 0xffff) & ~7; j0 < end; j0 += 8) tile(g + <usize>i0 * gRow, gRow, 4, 0, hd, vT + <usize>j0 * 4, sRow, dS + <usize>(i0 * S8 + j0) * 4, sRow, rowCount);
      }
      // tf.sum(dP ⊙ P, −1) from 0 over the row, then dS = (dP ⊙ P − Σ·P)·scale; zero outside the row's span.
      for (let i = 0; i < S; i++) {
        const first = load<i32>(lo + <usize>i * 4);
        const last = load<i32>(hi + <usize>i * 4);
        const pRow = P + <usize>(i * S) * 4;
        const row = dS + <usize>(i * S8) * 4;
        let rowSum: f32 = 0;
        for (let j = first; j <= last; j++) {
          const t = load<f32>(row + <usize>j * 4) * load<f32>(pRow + <usize>j * 4);
          store<f32>(row + <usize>j * 4, t);
          rowSum += t;
        }
        for (let j = first; j <= last; j++) store<f32>(row + <usize>j * 4, (load<f32>(row + <usize>j * 4) - rowSum * load<f32>(pRow + <usize>j * 4)) * scale);
        for (let j = 0; j < S8; j++) if (j < first || j > last) store<f32>(row + <usize>j * 4, 0);
      }
      for (let i0 = 0; i0 < S; i0 += 4) {
        const rowCount = min(4, S - i0);
        // dq = dS·k over the four rows' spans.
        const span = unionOfRows(lo, hi, i0, i0 + rowCount);
        const first = span & 0xffff;
        const end = max(first, span >>> 16);
        for (let d0 = 0; d0 < hd; d0 += 8) tile(dS + <usize>i0 * sRow, sRow, 4, first, end, k + <usize>d0 * 4, qkvRow, dRows + <usize>i0 * qkvRow + <usize>(h * hd + d0) * 4, qkvRow, rowCount);
        // dk = dSᵀ·q and dv = Pᵀ·dy for columns j = i0…i0+3, over the rows whose spans meet them.
        const meeting = rowsMeeting(lo, hi, S, i0, i0 + rowCount);
        const r0 = meeting & 0xffff;
        const r1 = max(r0, meeting >>> 16);
        for (let d0 = 0; d0 < hd; d0 += 8) {
          tile(dS + <usize>i0 * 4, 4, sRow, r0, r1, q + <usize>d0 * 4, qkvRow, dRows + <usize>i0 * qkvRow + <usize>(D + h * hd + d0) * 4, qkvRow, rowCount);
          tile(P + <usize>i0 * 4, 4, <usize>S * 4, r0, r1, g + <usize>d0 * 4, gRow, dRows + <usize>i0 * qkvRow + <usize>(2 * D + h * hd + d0) * 4, qkvRow, rowCount);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// tf.softmax on tfjs-wasm 4.22 is XNNPACK's softmax (softmax-nc.c with its wasmsimd microkernels): the row's max; then
// e^(x − max) by the rr2_p5 approximation (a two-part ln 2 range reduction, a degree-5 polynomial, 2^n by shifting the
// magic-biased n into the exponent, 0 below the denormal cutoff), each exp stored and added up four lanes at a time over
// the row's whole vectors, the four lanes summed as (l0 + l2) + (l1 + l3), then its last (length mod 4) exps one by one;
// then every exp times 1/sum. scripts/probes/softmax-match.ts compares this with tf.softmax on 192,000 rows of every
// length 1…64: none differs.

// @ts-ignore: decorator
@inline const LOG2E: f32 = reinterpret<f32>(0x3fb8aa3b); // 0x1.715476p+0
// @ts-ignore: decorator
@inline const MAGIC_BIAS: f32 = reinterpret<f32>(0x4b40007f); // 0x1.8000FEp23
// @ts-ignore: decorator
@inline const MINUS_LN2_HI: f32 = reinterpret<f32>(0xbf317200); // -0x1.62E400p-1
// @ts-ignore: decorator
@inline const MINUS_LN2_LO: f32 = reinterpret<f32>(0xb5bfbe8e); // -0x1.7F7D1Cp-20
// @ts-ignore: decorator
@inline const C5: f32 = reinterpret<f32>(0x3c07cfce); // 0x1.0F9F9Cp-7
// @ts-ignore: decorator
@inline const C4: f32 = reinterpret<f32>(0x3d2b9d0d); // 0x1.573A1Ap-5
// @ts-ignore: decorator
@inline const C3: f32 = reinterpret<f32>(0x3e2aad40); // 0x1.555A80p-3
// @ts-ignore: decorator
@inline const C2: f32 = reinterpret<f32>(0x3efffee3); // 0x1.FFFDC6p-2
// @ts-ignore: decorator
@inline const C1: f32 = reinterpret<f32>(0x3f7ffffb); // 0x1.FFFFF6p-1
// @ts-ignore: decorator
@inline const DENORM_CUTOFF: f32 = reinterpret<f32>(0xc2aeac4f); // -0x1.5D589Ep6

/** XNNPACK's e^x for x = input − max ≤ 0, four lanes. */
@inline function expLanes(x: v128): v128 {
  let n = f32x4.add(f32x4.mul(x, f32x4.splat(LOG2E)), f32x4.splat(MAGIC_BIAS));
  const s = i32x4.shl(n, 23);
  n = f32x4.sub(n, f32x4.splat(MAGIC_BIAS));
  let t = f32x4.add(f32x4.mul(n, f32x4.splat(MINUS_LN2_HI)), x);
  t = f32x4.add(f32x4.mul(n, f32x4.splat(MINUS_LN2_LO)), t);
  let p = f32x4.add(f32x4.mul(f32x4.splat(C5), t), f32x4.splat(C4));
  p = f32x4.add(f32x4.mul(p, t), f32x4.splat(C3));
  p = f32x4.add(f32x4.mul(p, t), f32x4.splat(C2));
  p = f32x4.add(f32x4.mul(p, t), f32x4.splat(C1));
  t = f32x4.mul(t, s);
  return v128.andnot(f32x4.add(f32x4.mul(t, p), s), f32x4.lt(x, f32x4.splat(DENORM_CUTOFF)));
}

/** tf.softmax of the n floats at row, in place, with tfjs-wasm's bits. */
function softmaxRow(row: usize, n: i32): void {
  // The max: XNNPACK's keeps the running max unless a later value is larger (f32x4.pmax, lane by lane, then across the
  // lanes the same way), so a NaN never replaces it; for numbers the order does not matter.
  let topV = f32x4.splat(load<f32>(row));
  let j = 0;
  for (; j + 4 <= n; j += 4) topV = f32x4.pmax(topV, v128.load(row + <usize>j * 4));
  let top = f32x4.extract_lane(topV, 0);
  top = top < f32x4.extract_lane(topV, 1) ? f32x4.extract_lane(topV, 1) : top;
  top = top < f32x4.extract_lane(topV, 2) ? f32x4.extract_lane(topV, 2) : top;
  top = top < f32x4.extract_lane(topV, 3) ? f32x4.extract_lane(topV, 3) : top;
  for (; j < n; j++) {
    const x = load<f32>(row + <usize>j * 4);
    if (top < x) top = x;
  }
  topV = f32x4.splat(top);
  const cutoff = f32x4.splat(DENORM_CUTOFF);
  let acc = f32x4.splat(0);
  j = 0;
  for (; j + 4 <= n; j += 4) {
    const x = f32x4.sub(v128.load(row + <usize>j * 4), topV);
    // Four masked positions (below the cutoff) are four +0s, and adding +0 to a sum of exps changes nothing.
    if (i32x4.all_true(f32x4.lt(x, cutoff))) {
      v128.store(row + <usize>j * 4, f32x4.splat(0));
      continue;
    }
    const e = expLanes(x);
    v128.store(row + <usize>j * 4, e);
    acc = f32x4.add(acc, e);
  }
  let sum = (f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 2)) + (f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 3));
  if (j < n) {
    // The last (n mod 4) exps in one vector, added one by one.
    const rest = n - j;
    const at = row + <usize>j * 4;
    let x = f32x4.splat(load<f32>(at));
    if (rest > 1) x = f32x4.replace_lane(x, 1, load<f32>(at, 4));
    if (rest > 2) x = f32x4.replace_lane(x, 2, load<f32>(at, 8));
    const e = expLanes(f32x4.sub(x, topV));
    store<f32>(at, f32x4.extract_lane(e, 0));
    sum += f32x4.extract_lane(e, 0);
    if (rest > 1) {
      store<f32>(at, f32x4.extract_lane(e, 1), 4);
      sum += f32x4.extract_lane(e, 1);
    }
    if (rest > 2) {
      store<f32>(at, f32x4.extract_lane(e, 2), 8);
      sum += f32x4.extract_lane(e, 2);
    }
  }
  const scale: f32 = 1 / sum;
  const scaleV = f32x4.splat(scale);
  j = 0;
  for (; j + 4 <= n; j += 4) v128.store(row + <usize>j * 4, f32x4.mul(v128.load(row + <usize>j * 4), scaleV));
  for (; j < n; j++) store<f32>(row + <usize>j * 4, load<f32>(row + <usize>j * 4) * scale);
}

/**
 * probs [H, B, S, S] ← softmax((q·kᵀ) · scale + mask) for every head h and sequence b (the product, then tf.mul by the
 * scale, then tf.add of the mask [S, S], then tf.softmax over the last axis).
 */
export function probabilities(qkv: usize, mask: usize, out: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  if (commonShape(S, hd)) probabilitiesCommon(qkv, mask, out, scratch, B, S, H, hd, scale);
  else probabilitiesAnyShape(qkv, mask, out, scratch, B, S, H, hd, scale);
}

/** y [B·S, D] ← P·v for every head, heads merged (y[b·S + i, h·hd + d] = (P·v)[h, b, i, d]). */
export function mix(qkv: usize, probs: usize, y: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32): void {
  if (commonShape(S, hd)) mixCommon(qkv, probs, y, scratch, B, S, H, hd);
  else mixAnyShape(qkv, probs, y, scratch, B, S, H, hd);
}

/** dqkv [B·S, 3D] ← the gradients of q, k and v in qkv's layout, from dy [B·S, D] (the merged heads' gradient). */
export function grad(dy: usize, qkv: usize, probs: usize, dqkv: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
  if (commonShape(S, hd)) gradCommon(dy, qkv, probs, dqkv, scratch, B, S, H, hd, scale);
  else gradAnyShape(dy, qkv, probs, dqkv, scratch, B, S, H, hd, scale);
}
