import * as tf from '@tensorflow/tfjs';

/**
 * Building blocks shared by the models. Why a custom gradient for dense layers: tfjs-wasm only sends untransposed
 * 2-D matmuls to XNNPACK; the transposeA/transposeB matmuls that the stock gradient uses fall back to a naive loop,
 * measured 10× slower (768×192·192×48: 11 ms vs 1 ms + 0.5 ms for an explicit transpose). So on wasm the backward
 * pass below transposes explicitly and then multiplies plainly. On cpu/webgl/webgpu the stock path is as fast or
 * faster, so it is kept there.
 */

type Activation = 'linear' | 'relu';

const LN_EPS = 1e-5;

function makeDense(activation: Activation) {
  return tf.customGrad((x, w, b, save) => {
    const [x2, w2, b1] = [x as tf.Tensor2D, w as tf.Tensor2D, b as tf.Tensor1D];
    const y = tf.fused.matMul({ a: x2, b: w2, bias: b1, activation }); // [N, out]
    (save as tf.GradSaveFunc)(activation === 'relu' ? [x2, w2, y] : [x2, w2]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const dz = activation === 'relu' ? tf.mul(dy, tf.step(saved[2])) : dy; // relu'(z) = [y > 0]
        return [
          tf.matMul(dz as tf.Tensor2D, tf.transpose(saved[1] as tf.Tensor2D)), // dx = dz·Wᵀ  [N, in]
          tf.matMul(tf.transpose(saved[0] as tf.Tensor2D), dz as tf.Tensor2D), // dW = xᵀ·dz  [in, out]
          tf.sum(dz, 0), // db [out]
        ];
      },
    };
  });
}

const wasmMatMul = tf.customGrad((a, b, save) => {
  const [a2, b2] = [a as tf.Tensor2D, b as tf.Tensor2D];
  (save as tf.GradSaveFunc)([a2, b2]);
  return {
    value: tf.matMul(a2, b2),
    gradFunc: (dy: tf.Tensor, [sa, sb]: tf.Tensor[]) => [
      tf.matMul(dy as tf.Tensor2D, tf.transpose(sb as tf.Tensor2D)),
      tf.matMul(tf.transpose(sa as tf.Tensor2D), dy as tf.Tensor2D),
    ],
  };
});

const wasmDense = { linear: makeDense('linear'), relu: makeDense('relu') };

const onWasm = () => tf.getBackend() === 'wasm';

/** act(x·W + b) as one fused op.  x [N, in], W [in, out], b [out] → [N, out]. */
export function dense(x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor, activation: Activation = 'linear'): tf.Tensor2D {
  if (onWasm()) return wasmDense[activation](x, w, b) as tf.Tensor2D;
  return tf.fused.matMul({ a: x, b: w, bias: b, activation }) as tf.Tensor2D;
}

/** a·b for 2-D tensors, with the wasm-friendly backward.  a [N, K], b [K, M] → [N, M]. */
export function matMul2d(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  return onWasm() ? (wasmMatMul(a, b) as tf.Tensor2D) : tf.matMul(a, b);
}

/**
 * One-hot rows as float32.  indices int32 [N] → [N, depth].
 * Not `tf.oneHot(…, 'float32')`: tfjs-wasm 4.22's OneHot kernel always writes int32 bits, so a float32 request
 * returns garbage (1 reads as 1.4e-45). int32 then cast is correct on every backend.
 */
export function oneHotF32(indices: tf.Tensor, depth: number): tf.Tensor {
  return tf.cast(tf.oneHot(indices as tf.Tensor1D, depth), 'float32');
}

/** LayerNorm over the last axis: (x − μ)/√(σ² + ε)·g + b.  x [N, D], g and b [D]. */
export function layerNorm(x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  const xc = tf.sub(x, tf.mean(x, -1, true)); // [N, D]
  const inv = tf.rsqrt(tf.add(tf.mean(tf.square(xc), -1, true), LN_EPS)); // [N, 1]
  return tf.add(tf.mul(tf.mul(xc, inv), g), b) as tf.Tensor2D;
}
