// LayerNorm over rows x, forward and backward, each as one call, with the numbers of the tfjs-wasm kernels that
// ops.ts's stock path (x − mean(x), then normalizeOps) and autodiff's gradient of it run, bit for bit (AssemblyScript,
// compiled by `npm run build:kernel` into ../wasm.ts). Every operation is the float32 operation tfjs-wasm's kernel
// performs, in its order: Mean (0 + each term, first to last, then ÷ D), Sub, Square then Mean, Add ε, Rsqrt (1 ÷ √,
// both in float32), the broadcast Multiply and Add; backward, Sum over a row or over rows from the first term to the
// last. Pow(σ² + ε, 1.5) is not reproducible outside tfjs-wasm's libm, so the host computes it with tfjs and passes it in.
//
// The module imports tfjs-wasm's memory; the host (../layer-norm.ts) passes byte offsets on that heap. No static data.

/** 0 + each of the d floats at p, first to last (tfjs-wasm's Sum over a row). */
@inline function rowSum(p: usize, d: i32): f32 {
  let sum: f32 = 0;
  for (let j = 0; j < d; j++) sum = sum + load<f32>(p + <usize>j * 4);
  return sum;
}

/** xc [n, d] ← x − mean(x) per row (tf.mean then tf.sub: the row's sum ÷ d, then each x − it). */
export function centre(x: usize, xc: usize, n: i32, d: i32): void {
  const size = <f32>d;
  for (let r = 0; r < n; r++) {
    const row = <usize>(r * d) * 4;
    const mean = rowSum(x + row, d) / size;
    for (let j = 0; j < d; j++) store<f32>(xc + row + <usize>j * 4, load<f32>(x + row + <usize>j * 4) - mean);
  }
}

/**
 * The gradient that reaches x through the mean it was centred by, from dxc [n, d]: tf.sub's gradient for the mean,
 * −(Σⱼ dxc, from 0, first to last), then tf.mean's, (that · 1) ÷ d for each of the row's d entries.
 */
export function centringGrad(dxc: usize, out: usize, n: i32, d: i32): void {
  const size = <f32>d;
  for (let r = 0; r < n; r++) {
    const row = <usize>(r * d) * 4;
    const spread = -rowSum(dxc + row, d) / size;
    for (let j = 0; j < d; j++) store<f32>(out + row + <usize>j * 4, spread);
  }
}

/**
 * For rows xc [n, d] (already centred): shifted = mean(xc²) + ε and inv = 1/√shifted [n], x̂ = xc·inv and
 * y = x̂·g + b [n, d].
 */
export function forward(xc: usize, g: usize, b: usize, y: usize, shifted: usize, inv: usize, xhat: usize, n: i32, d: i32, eps: f32): void {
  const size = <f32>d;
  for (let r = 0; r < n; r++) {
    const row = <usize>(r * d) * 4;
    let sum: f32 = 0;
    for (let j = 0; j < d; j++) {
      const v = load<f32>(xc + row + <usize>j * 4);
      sum = sum + v * v;
    }
    const s = sum / size + eps;
    const k: f32 = 1 / sqrt<f32>(s);
    store<f32>(shifted + <usize>r * 4, s);
    store<f32>(inv + <usize>r * 4, k);
    // Elementwise from here: four columns at a time, each lane the same float32 operations as one column.
    const kv = f32x4.splat(k);
    let j = 0;
    for (; j + 4 <= d; j += 4) {
      const at = row + <usize>j * 4;
      const h = f32x4.mul(v128.load(xc + at), kv);
      v128.store(xhat + at, h);
      v128.store(y + at, f32x4.add(f32x4.mul(h, v128.load(g + <usize>j * 4)), v128.load(b + <usize>j * 4)));
    }
    for (; j < d; j++) {
      const at = row + <usize>j * 4;
      const h = load<f32>(xc + at) * k;
      store<f32>(xhat + at, h);
      store<f32>(y + at, h * load<f32>(g + <usize>j * 4) + load<f32>(b + <usize>j * 4));
    }
  }
}

/**
 * The gradients of forward() given dy [n, d], as ops.ts writes them out: dx̂ = dy·g; dinv = Σⱼ dx̂·xc;
 * dshifted = −(dinv / (pow15·2)); dsquare = dshifted / d; dxc = dx̂·inv + dsquare·(xc·2); dg = Σᵣ dy·x̂; db = Σᵣ dy.
 * pow15 [n] is shifted^1.5 from tfjs.
 */
export function backward(dy: usize, xc: usize, inv: usize, xhat: usize, g: usize, pow15: usize, dxc: usize, dg: usize, db: usize, n: i32, d: i32): void {
  const size = <f32>d;
  for (let j = 0; j < d; j++) {
    store<f32>(dg + <usize>j * 4, 0);
    store<f32>(db + <usize>j * 4, 0);
  }
  for (let r = 0; r < n; r++) {
    const row = <usize>(r * d) * 4;
    let dInv: f32 = 0;
    for (let j = 0; j < d; j++) {
      const at = row + <usize>j * 4;
      dInv = dInv + load<f32>(dy + at) * load<f32>(g + <usize>j * 4) * load<f32>(xc + at);
    }
    const dSquare = -(dInv / (load<f32>(pow15 + <usize>r * 4) * 2)) / size;
    const k = load<f32>(inv + <usize>r * 4);
    // Elementwise, and the column sums over rows: four columns at a time, each lane one column's operations.
    const kv = f32x4.splat(k);
    const dSquareV = f32x4.splat(dSquare);
    const two = f32x4.splat(2);
    let j = 0;
    for (; j + 4 <= d; j += 4) {
      const at = row + <usize>j * 4;
      const gy = v128.load(dy + at);
      const x = v128.load(xc + at);
      v128.store(dxc + at, f32x4.add(f32x4.mul(f32x4.mul(gy, v128.load(g + <usize>j * 4)), kv), f32x4.mul(dSquareV, f32x4.mul(x, two))));
      const pg = dg + <usize>j * 4;
      v128.store(pg, f32x4.add(v128.load(pg), f32x4.mul(gy, v128.load(xhat + at))));
      const pb = db + <usize>j * 4;
      v128.store(pb, f32x4.add(v128.load(pb), gy));
    }
    for (; j < d; j++) {
      const at = row + <usize>j * 4;
      const gy = load<f32>(dy + at);
      const x = load<f32>(xc + at);
      store<f32>(dxc + at, gy * load<f32>(g + <usize>j * 4) * k + dSquare * (x * 2));
      const pg = dg + <usize>j * 4;
      store<f32>(pg, load<f32>(pg) + gy * load<f32>(xhat + at));
      const pb = db + <usize>j * 4;
      store<f32>(pb, load<f32>(pb) + gy);
    }
  }
}
