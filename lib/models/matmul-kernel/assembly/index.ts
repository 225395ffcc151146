// tfjs-wasm's batched matmul, bit for bit, four output columns at a time (AssemblyScript, compiled by
// `npm run build:kernel` into ../wasm.ts). tfjs-wasm 4.22 hands a matmul to XNNPACK only when it is one untransposed
// 2-D product; every other one (attention's q·kᵀ and P·v, over B·H small matrices, and their gradients) runs its
// portable loop, one scalar multiply-add after another (batch_mat_mul_impl.cc, slow_batch_matmul). This computes the
// same sums in the same order: each output is 0 + (the block sum over k = 0…47) + (the block sum over 48…95) + …, each
// block summed from its first k to its last, a float32 multiply then a float32 add per term (WebAssembly has no fused
// multiply-add, so each lane rounds as the scalar loop does). Only four neighbouring outputs share a SIMD register.
//
// The host (../batch-matmul.ts) owns the memory: it writes a and b, calls batchMatMul, and reads out back.

const BLOCK: i32 = 48; // tfjs-wasm's kBlockSize: the shared dimension is summed in blocks of this many terms

/** Floats of scratch batchMatMul needs: b of one batch entry repacked as [k, n rounded up to 4]. */
export function scratchFloats(k: i32, n: i32): i32 {
  return k * ((n + 3) & ~3);
}

/**
 * out[p] = a[p]·b[p] for p < batch, out [batch, m, n]. a is [batch, m, k], or [batch, k, m] when transposeA;
 * b is [batch, k, n], or [batch, n, k] when transposeB. Pointers are byte offsets; scratch holds scratchFloats(k, n).
 */
export function batchMatMul(a: usize, b: usize, out: usize, scratch: usize, batch: i32, m: i32, k: i32, n: i32, transposeA: bool, transposeB: bool): void {
  const n4 = (n + 3) & ~3;
  const aRow: i32 = transposeA ? 1 : k; // stride between rows i of a, and between terms kk
  const aTerm: i32 = transposeA ? m : 1;
  for (let p = 0; p < batch; p++) {
    const ap = a + <usize>(p * m * k) * 4;
    const bp = b + <usize>(p * k * n) * 4;
    const op = out + <usize>(p * m * n) * 4;
    // b as [k, n4], zero beyond column n: four neighbouring columns load as one vector.
    for (let kk = 0; kk < k; kk++) {
      const row = scratch + <usize>(kk * n4) * 4;
      for (let j = 0; j < n4; j++) {
        const value: f32 = j < n ? load<f32>(bp + <usize>(transposeB ? j * k + kk : kk * n + j) * 4) : 0;
        store<f32>(row + <usize>j * 4, value);
      }
    }
    for (let i = 0; i < m; i++) {
      const ai = ap + <usize>(i * aRow) * 4;
      const oi = op + <usize>(i * n) * 4;
      for (let j = 0; j < n4; j += 4) {
        let total = f32x4.splat(0);
        let k0 = 0;
        while (k0 < k) {
          const k1 = min(k0 + BLOCK, k);
          let sum = f32x4.splat(0);
          for (let kk = k0; kk < k1; kk++) {
            const x = f32x4.splat(load<f32>(ai + <usize>(kk * aTerm) * 4));
            sum = f32x4.add(sum, f32x4.mul(x, v128.load(scratch + <usize>(kk * n4 + j) * 4)));
          }
          total = f32x4.add(total, sum);
          k0 = k1;
        }
        if (j + 4 <= n) v128.store(oi + <usize>j * 4, total);
        else for (let lane = 0; lane < n - j; lane++) store<f32>(oi + <usize>(j + lane) * 4, extractLane(total, lane));
      }
    }
  }
}

@inline function extractLane(v: v128, lane: i32): f32 {
  if (lane == 0) return f32x4.extract_lane(v, 0);
  if (lane == 1) return f32x4.extract_lane(v, 1);
  return f32x4.extract_lane(v, 2);
}

/** Where the host may start placing data (past the module's own static data). */
export function heapBase(): usize {
  return __heap_base;
}
