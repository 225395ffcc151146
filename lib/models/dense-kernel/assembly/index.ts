// The backward pass of a dense layer y = act(x·W + b) in one call, with tfjs-wasm's numbers bit for bit (AssemblyScript,
// compiled by `npm run build:kernel` into ../wasm.ts). Stock, it is six tfjs kernels: Step and Multiply for the ReLU,
// two Transposes, two XNNPACK matmuls that repack their right operand on every call (dz, 1344 × 128 in the GRPO lab),
// and a Sum over rows behind one more Transpose. Here:
//   dz = dy · step(y)                          (Step: 1 where y > 0, y itself where y is NaN, else 0)
//   dx[n, i] = 0 + Σⱼ dz[n, j]·W[i, j]         (XNNPACK's GEMM: the accumulator starts at 0 and adds each product,
//   dW[i, j] = 0 + Σₙ x[n, i]·dz[n, j]          first term to last, a float32 multiply then a float32 add)
//   db[j]    = 0 + Σₙ dz[n, j]                  (tfjs-wasm's Sum: first row to last)
// WebAssembly has no fused multiply-add, so each SIMD lane rounds as the scalar code does; lanes are separate outputs.
// The same tiles also run the forward pass in place of tfjs-wasm's matmul kernels (`forward`, ../dense-forward.ts):
// XNNPACK's GEMM with the bias as the accumulator's first value, without repacking the weights on every call.
//
// The module imports tfjs-wasm's own memory (the hosts, ../dense-grad.ts and ../dense-forward.ts, pass byte offsets of tensors on that heap and
// of scratch it allocates there), so nothing is copied in or out. It has no static data and allocates nothing.

/** dzOut [n, stride] ← dy [n, cols] · step(y) (or a copy of dy), zero in the columns from cols to stride. */
export function prepareDz(dy: usize, y: usize, dzOut: usize, n: i32, cols: i32, stride: i32, relu: bool): void {
  const ones = f32x4.splat(1);
  const zeros = f32x4.splat(0);
  for (let r = 0; r < n; r++) {
    const src = <usize>(r * cols) * 4;
    const dst = dzOut + <usize>(r * stride) * 4;
    let j = 0;
    for (; j + 4 <= cols; j += 4) {
      let g = v128.load(dy + src + <usize>j * 4);
      if (relu) {
        const v = v128.load(y + src + <usize>j * 4);
        const step = v128.bitselect(v, v128.bitselect(ones, zeros, f32x4.gt(v, zeros)), f32x4.ne(v, v));
        g = f32x4.mul(g, step);
      }
      v128.store(dst + <usize>j * 4, g);
    }
    for (; j < cols; j++) {
      let g = load<f32>(dy + src + <usize>j * 4);
      if (relu) {
        const v = load<f32>(y + src + <usize>j * 4);
        const step: f32 = v != v ? v : v > 0 ? 1 : 0;
        g = g * step;
      }
      store<f32>(dst + <usize>j * 4, g);
    }
    for (; j < stride; j++) store<f32>(dst + <usize>j * 4, 0);
  }
}

/** wt [cols, stride] ← wᵀ for w [rows, cols], zero in the columns from rows to stride. */
export function transposePadded(w: usize, wt: usize, rows: i32, cols: i32, stride: i32): void {
  for (let j = 0; j < cols; j++) {
    const dst = wt + <usize>(j * stride) * 4;
    for (let i = 0; i < rows; i++) store<f32>(dst + <usize>i * 4, load<f32>(w + <usize>(i * cols + j) * 4));
    for (let i = rows; i < stride; i++) store<f32>(dst + <usize>i * 4, 0);
  }
}

/** Stores the first `count` lanes of v (count < 4) at p. */
@inline function storeLanes(p: usize, v: v128, count: i32): void {
  if (count > 0) store<f32>(p, f32x4.extract_lane(v, 0));
  if (count > 1) store<f32>(p + 4, f32x4.extract_lane(v, 1));
  if (count > 2) store<f32>(p + 8, f32x4.extract_lane(v, 2));
}

/** Stores 8 lanes (lo then hi) at p, only those below `valid`. */
@inline function store8(p: usize, lo: v128, hi: v128, valid: i32): void {
  if (valid >= 8) {
    v128.store(p, lo);
    v128.store(p + 16, hi);
  } else if (valid >= 4) {
    v128.store(p, lo);
    storeLanes(p + 16, hi, valid - 4);
  } else storeLanes(p, lo, valid);
}

/**
 * out [m, outCols] = aᵀ·b summed over t < len, where a is [len, aStride] (its columns 0…m−1 are the rows of out) and
 * b is [len, bStride] with bStride a multiple of 8 covering outCols (zero beyond). Each output: 0, then + a·b for
 * t = 0, 1, … in order. dW = xᵀ·dz uses it.
 */
export function productTransposedA(a: usize, aStride: i32, b: usize, bStride: i32, out: usize, len: i32, m: i32, outCols: i32): void {
  let i = 0;
  for (; i + 4 <= m; i += 4) {
    for (let j = 0; j < outCols; j += 8) {
      let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
      let pa = a + <usize>i * 4;
      let pb = b + <usize>j * 4;
      for (let t = 0; t < len; t++) {
        const av = v128.load(pa);
        const b0 = v128.load(pb);
        const b1 = v128.load(pb, 16);
        const a0 = f32x4.splat(f32x4.extract_lane(av, 0));
        const a1 = f32x4.splat(f32x4.extract_lane(av, 1));
        const a2 = f32x4.splat(f32x4.extract_lane(av, 2));
        const a3 = f32x4.splat(f32x4.extract_lane(av, 3));
        c00 = f32x4.add(c00, f32x4.mul(a0, b0));
        c01 = f32x4.add(c01, f32x4.mul(a0, b1));
        c10 = f32x4.add(c10, f32x4.mul(a1, b0));
        c11 = f32x4.add(c11, f32x4.mul(a1, b1));
        c20 = f32x4.add(c20, f32x4.mul(a2, b0));
        c21 = f32x4.add(c21, f32x4.mul(a2, b1));
        c30 = f32x4.add(c30, f32x4.mul(a3, b0));
        c31 = f32x4.add(c31, f32x4.mul(a3, b1));
        pa += <usize>aStride * 4;
        pb += <usize>bStride * 4;
      }
      const valid = outCols - j;
      const o = out + <usize>(i * outCols + j) * 4;
      store8(o, c00, c01, valid);
      store8(o + <usize>outCols * 4, c10, c11, valid);
      store8(o + <usize>(2 * outCols) * 4, c20, c21, valid);
      store8(o + <usize>(3 * outCols) * 4, c30, c31, valid);
    }
  }
  for (; i < m; i++) {
    for (let j = 0; j < outCols; j += 8) {
      let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
      let pa = a + <usize>i * 4;
      let pb = b + <usize>j * 4;
      for (let t = 0; t < len; t++) {
        const x = f32x4.splat(load<f32>(pa));
        c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
        c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
        pa += <usize>aStride * 4;
        pb += <usize>bStride * 4;
      }
      store8(out + <usize>(i * outCols + j) * 4, c0, c1, outCols - j);
    }
  }
}

/**
 * out [rows, outCols] = a·b, a [rows, k] (row stride aStride), b [k, bStride] with bStride a multiple of 8 covering
 * outCols (zero beyond). Each output: 0, then + a·b for t = 0 … k − 1 in order. dx = dz·Wᵀ uses it, with b = Wᵀ padded.
 */
export function product(a: usize, aStride: i32, b: usize, bStride: i32, out: usize, rows: i32, k: i32, outCols: i32): void {
  productTiles(a, aStride, b, bStride, out, rows, k, outCols, 0, false);
}

/**
 * A dense layer's forward pass as tfjs-wasm runs it for a single untransposed 2-D product (XNNPACK's GEMM, in
 * _FusedMatMul and BatchMatMul): out = act(bias + Σₜ a·b), the bias (zeros when bias = 0) the accumulator's first
 * value, then each product added first term to last. act is ReLU when `relu`: v where v > 0, else +0 (XNNPACK's clamp
 * to [0, ∞)). b and bias are padded to bStride, a multiple of 8.
 */
export function forward(a: usize, aStride: i32, b: usize, bStride: i32, bias: usize, out: usize, rows: i32, k: i32, outCols: i32, relu: bool): void {
  productTiles(a, aStride, b, bStride, out, rows, k, outCols, bias, relu);
}

/** The accumulators' first value: the bias, or 0. */
@inline function initial(bias: usize, j: i32): v128 {
  return bias != 0 ? v128.load(bias + <usize>j * 4) : f32x4.splat(0);
}

/** The activation after the sum. */
@inline function finish(c: v128, relu: bool): v128 {
  return relu ? v128.bitselect(c, f32x4.splat(0), f32x4.gt(c, f32x4.splat(0))) : c;
}

@inline function productTiles(a: usize, aStride: i32, b: usize, bStride: i32, out: usize, rows: i32, k: i32, outCols: i32, bias: usize, relu: bool): void {
  let r = 0;
  for (; r + 4 <= rows; r += 4) {
    const pa0 = a + <usize>(r * aStride) * 4;
    const rowBytes = <usize>aStride * 4;
    for (let j = 0; j < outCols; j += 8) {
      const i0 = initial(bias, j);
      const i1 = initial(bias, j + 4);
      let c00 = i0, c01 = i1, c10 = i0, c11 = i1;
      let c20 = i0, c21 = i1, c30 = i0, c31 = i1;
      let pb = b + <usize>j * 4;
      for (let t = 0; t < k; t++) {
        const p = pa0 + <usize>t * 4;
        const b0 = v128.load(pb);
        const b1 = v128.load(pb, 16);
        const a0 = f32x4.splat(load<f32>(p));
        const a1 = f32x4.splat(load<f32>(p + rowBytes));
        const a2 = f32x4.splat(load<f32>(p + 2 * rowBytes));
        const a3 = f32x4.splat(load<f32>(p + 3 * rowBytes));
        c00 = f32x4.add(c00, f32x4.mul(a0, b0));
        c01 = f32x4.add(c01, f32x4.mul(a0, b1));
        c10 = f32x4.add(c10, f32x4.mul(a1, b0));
        c11 = f32x4.add(c11, f32x4.mul(a1, b1));
        c20 = f32x4.add(c20, f32x4.mul(a2, b0));
        c21 = f32x4.add(c21, f32x4.mul(a2, b1));
        c30 = f32x4.add(c30, f32x4.mul(a3, b0));
        c31 = f32x4.add(c31, f32x4.mul(a3, b1));
        pb += <usize>bStride * 4;
      }
      const valid = outCols - j;
      const o = out + <usize>(r * outCols + j) * 4;
      store8(o, finish(c00, relu), finish(c01, relu), valid);
      store8(o + <usize>outCols * 4, finish(c10, relu), finish(c11, relu), valid);
      store8(o + <usize>(2 * outCols) * 4, finish(c20, relu), finish(c21, relu), valid);
      store8(o + <usize>(3 * outCols) * 4, finish(c30, relu), finish(c31, relu), valid);
    }
  }
  for (; r < rows; r++) {
    const pa = a + <usize>(r * aStride) * 4;
    for (let j = 0; j < outCols; j += 8) {
      let c0 = initial(bias, j), c1 = initial(bias, j + 4);
      let pb = b + <usize>j * 4;
      for (let t = 0; t < k; t++) {
        const x = f32x4.splat(load<f32>(pa + <usize>t * 4));
        c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
        c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
        pb += <usize>bStride * 4;
      }
      store8(out + <usize>(r * outCols + j) * 4, finish(c0, relu), finish(c1, relu), outCols - j);
    }
  }
}

/** out [rows, stride] ← a [rows, cols] with zeros in the columns from cols to stride (a weight or a bias, padded). */
export function padColumns(a: usize, out: usize, rows: i32, cols: i32, stride: i32): void {
  for (let r = 0; r < rows; r++) {
    const src = a + <usize>(r * cols) * 4;
    const dst = out + <usize>(r * stride) * 4;
    memory.copy(dst, src, <usize>cols * 4);
    memory.fill(dst + <usize>cols * 4, 0, <usize>(stride - cols) * 4);
  }
}

/** out [cols] = column sums of a [rows, stride] (stride a multiple of 4 covering cols), each 0 + a[0] + a[1] + …. */
export function columnSums(a: usize, stride: i32, out: usize, rows: i32, cols: i32): void {
  for (let j = 0; j < cols; j += 4) {
    let sum = f32x4.splat(0);
    let p = a + <usize>j * 4;
    for (let r = 0; r < rows; r++) {
      sum = f32x4.add(sum, v128.load(p));
      p += <usize>stride * 4;
    }
    if (j + 4 <= cols) v128.store(out + <usize>j * 4, sum);
    else storeLanes(out + <usize>j * 4, sum, cols - j);
  }
}
