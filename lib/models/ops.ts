import * as tf from '@tensorflow/tfjs';
import { denseGrad, denseGradApplies } from './dense-kernel/dense-grad';
import { layerNormBackward, layerNormForward, layerNormKernelApplies } from './layernorm-kernel/layer-norm';
import { batchMatMul, matMulKernelApplies } from './matmul-kernel/batch-matmul';
import { fusedAttentionApplies, fusedSelfAttention } from './attention-kernel/attention';

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
        // The same numbers as below in one kernel (dense-kernel/): no transposes, no repacking, no copies.
        if (denseGradApplies()) return denseGrad(dy as tf.Tensor2D, saved[0] as tf.Tensor2D, saved[1] as tf.Tensor2D, activation === 'relu' ? (saved[2] as tf.Tensor2D) : null, true);
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
    gradFunc: (dy: tf.Tensor, [sa, sb]: tf.Tensor[]) =>
      denseGradApplies()
        ? denseGrad(dy as tf.Tensor2D, sa as tf.Tensor2D, sb as tf.Tensor2D, null, false)
        : [tf.matMul(dy as tf.Tensor2D, tf.transpose(sb as tf.Tensor2D)), tf.matMul(tf.transpose(sa as tf.Tensor2D), dy as tf.Tensor2D)],
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
  if (layerNormKernelApplies()) return layerNormOnHeap(x, x, g, b) as tf.Tensor2D;
  return normalizeOps(tf.sub(x, tf.mean(x, -1, true)) as tf.Tensor2D, g, b).y; // xc [N, D]
}

/** The rest of LayerNorm, from the centred rows xc: xc/√(mean(xc²) + ε)·g + b. */
function normalizeOps(xc: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor) {
  const shifted = tf.add(tf.mean(tf.square(xc), -1, true), LN_EPS); // σ² + ε  [N, 1]
  const inv = tf.rsqrt(shifted); // [N, 1]
  const xhat = tf.mul(xc, inv);
  return { y: tf.add(tf.mul(xhat, g), b) as tf.Tensor2D, shifted, inv, xhat };
}

/**
 * The stock path above as two kernels (layernorm-kernel/: the same operations on tfjs-wasm's heap), forward and
 * backward, with autodiff's numbers bit for bit, and without what autodiff adds on wasm: a copy of every tensor it
 * saves, float32-to-float32 casts, the mean's gradient spread over a ones tensor it fills in JS, ~30 kernels in all.
 * x goes in twice because it reaches the loss by two paths inside LayerNorm, x − mean(x) and the mean, and autodiff
 * adds each path's gradient to x's separately, after the gradient from the residual stream: (d_residual + d_xc) +
 * d_mean. As two inputs of one node, the two terms come back as two gradients, and the tape adds them in that order
 * (float addition is not associative, so one summed gradient would change the last bits).
 */
const layerNormOnHeap = tf.customGrad((x, _xAgain, g, b, save) => {
  const { y, xc, shifted, inv, xhat } = layerNormForward(x as tf.Tensor2D, g as tf.Tensor, b as tf.Tensor, LN_EPS);
  (save as tf.GradSaveFunc)([xc, shifted, inv, xhat, g as tf.Tensor]);
  return { value: y, gradFunc: (dy: tf.Tensor, [sxc, sShifted, sInv, sXhat, sg]: tf.Tensor[]) => layerNormBackward(dy, sxc, sShifted, sInv, sXhat, sg) };
});

/** softmax(q·kᵀ/√hd + mask)·v, as the model always computed it: both paths below share it. */
function attentionOps(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, mask: tf.Tensor) {
  const scale = 1 / Math.sqrt(q.shape[3]);
  const probs = tf.softmax(tf.add(tf.mul(batchMatMul(q, k, false, true), scale), mask)) as tf.Tensor4D;
  return { probs, out: batchMatMul(probs, v), scale };
}

/**
 * Attention with its backward pass written out, as autodiff runs it for attentionOps (the batched products' gradients,
 * tfjs's softmax gradient dS = dP ⊙ P − Σⱼ(dP ⊙ P)·P, then the scale), so the gradients are the same bit for bit. It
 * saves q, k, v and P where autodiff saves (copies, on wasm) eight tensors, and computes no gradient for the mask.
 */
const attentionWithGrad = tf.customGrad((q, k, v, mask, save) => {
  const { probs, out, scale } = attentionOps(q as tf.Tensor4D, k as tf.Tensor4D, v as tf.Tensor4D, mask as tf.Tensor);
  (save as tf.GradSaveFunc)([q as tf.Tensor, k as tf.Tensor, v as tf.Tensor, probs]);
  return {
    value: out,
    gradFunc: (dy: tf.Tensor, [sq, sk, sv, sp]: tf.Tensor[]) => {
      const dProbs = batchMatMul(dy, sv, false, true);
      const dyTimesY = tf.mul(dProbs, sp);
      const dScores = tf.mul(tf.sub(dyTimesY, tf.mul(tf.sum(dyTimesY, -1, true), sp)), scale);
      return [batchMatMul(dScores, sk), batchMatMul(dScores, sq, true, false), batchMatMul(sp, dy, true, false), tf.zerosLike(mask as tf.Tensor)];
    },
  };
});

/**
 * Causal self-attention over heads: softmax(q·kᵀ/√hd + mask)·v.  q, k, v [H, B, T, hd], mask [T, T] (0, or −1e9
 * above the diagonal) → [H, B, T, hd]. The mask is a constant: no gradient reaches it.
 */
export function attention(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, mask: tf.Tensor2D): tf.Tensor4D {
  if (!matMulKernelApplies(q.shape, k.shape)) return attentionOps(q, k, v, mask).out;
  return attentionWithGrad(q, k, v, mask) as tf.Tensor4D;
}

/** q, k, v [H, B, S, hd] each, from qkv [B·S, 3D] (q, k, v side by side, heads side by side within each). */
function splitHeads(qkv: tf.Tensor2D, B: number, S: number, H: number): tf.Tensor4D[] {
  const hd = qkv.shape[1] / (3 * H);
  // Heads-first layout [3H, B, S, hd]: q, k, v are then contiguous slices (3× cheaper on wasm than [B, 3H, …]).
  const heads = tf.transpose(tf.reshape(qkv, [B, S, 3 * H, hd]), [2, 0, 1, 3]); // [3H, B, S, hd]
  return tf.split(heads, 3, 0) as tf.Tensor4D[];
}

/**
 * A layer's causal self-attention from its qkv projection [B·S, 3D] to the heads' outputs merged [B·S, D]:
 * softmax(q·kᵀ/√hd + mask)·v per head, mask [S, S]. On wasm one kernel each for the scores, the mixing and the whole
 * backward pass (attention-kernel/: the same numbers); elsewhere the heads are split, attended and merged as tensors.
 */
export function selfAttention(qkv: tf.Tensor2D, B: number, S: number, H: number, mask: tf.Tensor2D): tf.Tensor2D {
  if (fusedAttentionApplies()) return fusedSelfAttention(qkv, mask, B, S, H);
  const [q, k, v] = splitHeads(qkv, B, S, H);
  const att = attention(q, k, v, mask); // [H, B, S, hd]
  return tf.reshape(tf.transpose(att, [1, 2, 0, 3]), [B * S, qkv.shape[1] / 3]) as tf.Tensor2D; // [B, S, H, hd] → [BS, D]
}

/** The attention probabilities selfAttention computes, [B, H, S, S] (for inspection: an extra product, no gradient). */
export function attentionProbs(qkv: tf.Tensor2D, B: number, S: number, H: number, mask: tf.Tensor2D): tf.Tensor4D {
  const [q, k] = splitHeads(qkv, B, S, H);
  const scores = tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(q.shape[3])), mask);
  return tf.transpose(tf.softmax(scores), [1, 0, 2, 3]) as tf.Tensor4D; // [H, B, S, S] → [B, H, S, S]
}
