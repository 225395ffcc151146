// Causal self-attention for one layer, forward and backward, in three calls, with tfjs-wasm's numbers bit for bit
// (AssemblyScript, compiled by `npm run build:kernel` into ../wasm.ts). The model computes (lib/models/ops.ts):
//   q, k, v = the heads of qkv [B·S, 3D] (a reshape, a transpose to [3H, B, S, hd] and a split)
//   P = softmax(q·kᵀ · scale + mask)          y = P·v, its heads merged back to [B·S, D] (a transpose and a reshape)
// and autodiff's backward pass for it (ops.ts attentionWithGrad): dP = dy·vᵀ, dS = (dP ⊙ P − Σⱼ(dP ⊙ P)·P) · scale,
// dq = dS·k, dk = dSᵀ·q, dv = Pᵀ·dy, the three written back into qkv's layout. Stock that is some twenty tfjs kernels
// a layer: four Transposes, a split and a concat that only move data, the scale, the mask and the softmax gradient as
// five elementwise kernels, and six batched products. Here the data moves inside the kernel, the products run on the
// batched matmul kernel's own code (../../matmul-kernel/assembly: the same sums in the same order), and the elementwise
// steps are the same float32 operations in the same order. The softmax itself stays tfjs-wasm's kernel (the host calls
// it between `scores` and `mix`).
//
// Imports tfjs-wasm's memory (the host, ../attention.ts, passes byte offsets on that heap). No static data, no allocation.
import { batchMatMul, scratchFloats as matMulScratch } from '../../matmul-kernel/assembly/index';

/** Floats of scratch one call needs: five [S, hd] heads, two [S, S] blocks, and the products' own repacking. */
export function scratchFloats(S: i32, hd: i32): i32 {
  const widest = max(S, hd);
  return 5 * S * hd + 2 * S * S + matMulScratch(widest, widest);
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

/**
 * scores [H, B, S, S] ← (q·kᵀ) · scale + mask for every head h and sequence b (the product, then tf.mul by the scale,
 * then tf.add of the mask [S, S]).
 */
export function scores(qkv: usize, mask: usize, out: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
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
    }
  }
}

/** y [B·S, D] ← P·v for every head, heads merged (y[b·S + i, h·hd + d] = (P·v)[h, b, i, d]). */
export function mix(qkv: usize, probs: usize, y: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32): void {
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

/** dqkv [B·S, 3D] ← the gradients of q, k and v in qkv's layout, from dy [B·S, D] (the merged heads' gradient). */
export function grad(dy: usize, qkv: usize, probs: usize, dqkv: usize, scratch: usize, B: i32, S: i32, H: i32, hd: i32, scale: f32): void {
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
