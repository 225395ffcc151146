// The optimizer's arithmetic on tfjs-wasm's heap (AssemblyScript, compiled by `npm run build:kernel` into ../wasm.ts):
// the squared norm of a gradient as tfjs computes it for clipping, and Adam's update of one variable after clipping,
// each operation rounded to float32 exactly as tfjs-wasm's kernels round it, in their order (../../optim.ts says which).
// WebAssembly's f32 arithmetic is IEEE single precision and has no fused multiply-add, so the results are the same bits.
//
// The module imports tfjs-wasm's memory; the host passes byte offsets of tensors on that heap. No static data.

/** 0 + g₀² + g₁² + … in order (tfjs-wasm's Square, then Sum from the first element to the last). */
export function sumOfSquares(g: usize, n: i32): f32 {
  let sum: f32 = 0;
  for (let i = 0; i < n; i++) {
    const x = load<f32>(g + <usize>i * 4);
    sum = sum + x * x;
  }
  return sum;
}

/**
 * Adam for n values: g ← g·scale (the clip), then tfjs's AdamOptimizer (adam_optimizer.ts, tfjs 4.22):
 *   m' = m·β₁ + g·(1 − β₁)          v' = v·β₂ + g²·(1 − β₂)
 *   x' = (m' / (1 − β₁ᵗ)) / (√(v' / (1 − β₂ᵗ)) + ε) · (−lr) + x
 * into mOut, vOut, xOut. Elements are independent, so four share a SIMD register.
 */
export function adamUpdate(
  g: usize, m: usize, v: usize, x: usize, mOut: usize, vOut: usize, xOut: usize, n: i32,
  scale: f32, beta1: f32, beta2: f32, oneMinusBeta1: f32, oneMinusBeta2: f32, correction1: f32, correction2: f32, epsilon: f32, step: f32,
): void {
  let i = 0;
  const s = f32x4.splat(scale), b1 = f32x4.splat(beta1), b2 = f32x4.splat(beta2), c1 = f32x4.splat(oneMinusBeta1), c2 = f32x4.splat(oneMinusBeta2);
  const k1 = f32x4.splat(correction1), k2 = f32x4.splat(correction2), eps = f32x4.splat(epsilon), lr = f32x4.splat(step);
  for (; i + 4 <= n; i += 4) {
    const at = <usize>i * 4;
    const gi = f32x4.mul(v128.load(g + at), s);
    const mi = f32x4.add(f32x4.mul(v128.load(m + at), b1), f32x4.mul(gi, c1));
    const vi = f32x4.add(f32x4.mul(v128.load(v + at), b2), f32x4.mul(f32x4.mul(gi, gi), c2));
    const update = f32x4.div(f32x4.div(mi, k1), f32x4.add(f32x4.sqrt(f32x4.div(vi, k2)), eps));
    v128.store(mOut + at, mi);
    v128.store(vOut + at, vi);
    v128.store(xOut + at, f32x4.add(f32x4.mul(update, lr), v128.load(x + at)));
  }
  for (; i < n; i++) {
    const at = <usize>i * 4;
    const gi = load<f32>(g + at) * scale;
    const mi = load<f32>(m + at) * beta1 + gi * oneMinusBeta1;
    const vi = load<f32>(v + at) * beta2 + gi * gi * oneMinusBeta2;
    const update = mi / correction1 / (sqrt<f32>(vi / correction2) + epsilon);
    store<f32>(mOut + at, mi);
    store<f32>(vOut + at, vi);
    store<f32>(xOut + at, update * step + load<f32>(x + at));
  }
}
