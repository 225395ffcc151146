// tfjs-wasm's batched matmul, bit for bit, four rows by eight output columns at a time (AssemblyScript, compiled by
// `npm run build:kernel` into ../wasm.ts). tfjs-wasm 4.22 hands a matmul to XNNPACK only when it is one untransposed
// 2-D product; every other one (attention's q·kᵀ and P·v, over B·H small matrices, and their gradients) runs its
// portable loop, one scalar multiply-add after another (batch_mat_mul_impl.cc, slow_batch_matmul). This computes the
// same sums in the same order: each output is 0 + (the block sum over k = 0…47) + (the block sum over 48…95) + …, each
// block summed from its first k to its last, a float32 multiply then a float32 add per term (WebAssembly has no fused
// multiply-add, so each lane rounds as the scalar loop does). A block sum starts at +0 and so is never −0: the first
// block's 0 + sum is the sum itself, which is what is stored; later blocks are added to it.
//
// The module imports tfjs-wasm's memory: the host (../batch-matmul.ts) passes byte offsets of tensors on that heap and
// of scratch it allocates there. It has no static data and allocates nothing.

export const BLOCK: i32 = 48; // tfjs-wasm's kBlockSize: the shared dimension is summed in blocks of this many terms

/** Floats of scratch batchMatMul needs: b of one batch entry repacked as [k, n rounded up to 8]. */
export function scratchFloats(k: i32, n: i32): i32 {
  return k * ((n + 7) & ~7);
}

/** Stores the first `count` lanes of v (count < 4) at p, or adds them to what is there. */
@inline function storeLanes(p: usize, v: v128, count: i32, accumulate: bool): void {
  for (let lane = 0; lane < count; lane++) {
    const x = lane == 0 ? f32x4.extract_lane(v, 0) : lane == 1 ? f32x4.extract_lane(v, 1) : f32x4.extract_lane(v, 2);
    store<f32>(p + <usize>lane * 4, accumulate ? load<f32>(p + <usize>lane * 4) + x : x);
  }
}

/** Stores 8 lanes (lo, hi) at p, only those below `valid`; with `accumulate`, adds them to what is there. */
@inline function store8(p: usize, lo: v128, hi: v128, valid: i32, accumulate: bool): void {
  if (valid >= 4) {
    v128.store(p, accumulate ? f32x4.add(v128.load(p), lo) : lo);
    if (valid >= 8) v128.store(p, accumulate ? f32x4.add(v128.load(p, 16), hi) : hi, 16);
    else storeLanes(p + 16, hi, valid - 4, accumulate);
  } else storeLanes(p, lo, valid, accumulate);
}

/**
 * out[p] = a[p]·b[p] for p < batch, out [batch, m, n]. a is [batch, m, k], or [batch, k, m] when transposeA;
 * b is [batch, k, n], or [batch, n, k] when transposeB. Pointers are byte offsets; scratch holds scratchFloats(k, n).
 */
export function batchMatMul(a: usize, b: usize, out: usize, scratch: usize, batch: i32, m: i32, k: i32, n: i32, transposeA: bool, transposeB: bool): void {
  const n8 = (n + 7) & ~7;
  const aRow = <usize>(transposeA ? 1 : k) * 4; // bytes between rows i of a, and between terms kk
  const aTerm = <usize>(transposeA ? m : 1) * 4;
  const bRow = <usize>n8 * 4;
  for (let p = 0; p < batch; p++) {
    const ap = a + <usize>(p * m * k) * 4;
    const bp = b + <usize>(p * k * n) * 4;
    const op = out + <usize>(p * m * n) * 4;
    // b as [k, n8], zero beyond column n: eight neighbouring columns load as two vectors.
    for (let kk = 0; kk < k; kk++) {
      const row = scratch + <usize>kk * bRow;
      for (let j = 0; j < n8; j++) {
        const value: f32 = j < n ? load<f32>(bp + <usize>(transposeB ? j * k + kk : kk * n + j) * 4) : 0;
        store<f32>(row + <usize>j * 4, value);
      }
    }
    for (let k0 = 0; k0 < k; k0 += BLOCK) {
      const k1 = min(k0 + BLOCK, k);
      const accumulate = k0 > 0;
      let i = 0;
      for (; i + 4 <= m; i += 4) {
        const a0 = ap + <usize>i * aRow;
        for (let j = 0; j < n; j += 8) {
          let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
          let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
          let pb = scratch + <usize>k0 * bRow + <usize>j * 4;
          let pa = a0 + <usize>k0 * aTerm;
          for (let kk = k0; kk < k1; kk++) {
            const b0 = v128.load(pb);
            const b1 = v128.load(pb, 16);
            const x0 = f32x4.splat(load<f32>(pa));
            const x1 = f32x4.splat(load<f32>(pa + aRow));
            const x2 = f32x4.splat(load<f32>(pa + 2 * aRow));
            const x3 = f32x4.splat(load<f32>(pa + 3 * aRow));
            c00 = f32x4.add(c00, f32x4.mul(x0, b0));
            c01 = f32x4.add(c01, f32x4.mul(x0, b1));
            c10 = f32x4.add(c10, f32x4.mul(x1, b0));
            c11 = f32x4.add(c11, f32x4.mul(x1, b1));
            c20 = f32x4.add(c20, f32x4.mul(x2, b0));
            c21 = f32x4.add(c21, f32x4.mul(x2, b1));
            c30 = f32x4.add(c30, f32x4.mul(x3, b0));
            c31 = f32x4.add(c31, f32x4.mul(x3, b1));
            pb += bRow;
            pa += aTerm;
          }
          const o = op + <usize>(i * n + j) * 4;
          const rowBytes = <usize>n * 4;
          store8(o, c00, c01, n - j, accumulate);
          store8(o + rowBytes, c10, c11, n - j, accumulate);
          store8(o + 2 * rowBytes, c20, c21, n - j, accumulate);
          store8(o + 3 * rowBytes, c30, c31, n - j, accumulate);
        }
      }
      for (; i < m; i++) {
        for (let j = 0; j < n; j += 8) {
          let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
          let pb = scratch + <usize>k0 * bRow + <usize>j * 4;
          let pa = ap + <usize>i * aRow + <usize>k0 * aTerm;
          for (let kk = k0; kk < k1; kk++) {
            const x = f32x4.splat(load<f32>(pa));
            c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
            c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
            pb += bRow;
            pa += aTerm;
          }
          store8(op + <usize>(i * n + j) * 4, c0, c1, n - j, accumulate);
        }
      }
    }
  }
}
