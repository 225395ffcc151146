import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '../wasm-heap';
import { ATTENTION_KERNEL_WASM_BASE64 } from './wasm';

/**
 * A layer's causal self-attention on the wasm backend in three kernels a pass, from qkv [B·S, 3D] to the merged heads
 * [B·S, D] and back, with the numbers of the stock path (ops.ts: split heads, attention(), merge heads) bit for bit:
 * assembly/index.ts says which operations, in which order. The stock path is ~8 tfjs kernels forward and ~13 backward
 * per layer, four of them Transposes of every head, and each saved or intermediate tensor a tfjs allocation.
 */

interface KernelExports {
  scratchFloats(S: number, hd: number): number;
  probabilities(qkv: number, mask: number, out: number, scratch: number, B: number, S: number, H: number, hd: number, scale: number): void;
  mix(qkv: number, probs: number, y: number, scratch: number, B: number, S: number, H: number, hd: number): void;
  grad(dy: number, qkv: number, probs: number, dqkv: number, scratch: number, B: number, S: number, H: number, hd: number, scale: number): void;
}

const kernelFor = heapKernel<KernelExports>(ATTENTION_KERNEL_WASM_BASE64);

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

/** Runs `body` with the kernel, the heap and scratch enough for sequences of S and heads of hd (freed after). */
function withScratch<T>(backend: unknown, S: number, hd: number, body: (k: KernelExports, heap: ReturnType<typeof heapOf>, scratch: number) => T): T {
  const k = kernelFor(backend)!;
  const heap = heapOf(backend);
  const scratch = heap.malloc(k.scratchFloats(S, hd) * 4);
  try {
    return body(k, heap, scratch);
  } finally {
    heap.free(scratch);
  }
}

const sizes = (attrs: tf.NamedAttrMap | undefined) => attrs as unknown as { B: number; S: number; H: number; hd: number; scale: number };

const KERNELS: Record<string, (args: KernelArgs) => tf.TensorInfo> = {
  ArlAttentionProbs: ({ inputs, backend, attrs }) => {
    const { B, S, H, hd, scale } = sizes(attrs);
    return withScratch(backend, S, hd, (k, heap, scratch) => {
      const out = heap.output([H, B, S, S]);
      k.probabilities(heap.at(inputs.qkv as tf.TensorInfo), heap.at(inputs.mask as tf.TensorInfo), heap.at(out), scratch, B, S, H, hd, scale);
      return out;
    });
  },
  ArlAttentionMix: ({ inputs, backend, attrs }) => {
    const { B, S, H, hd } = sizes(attrs);
    return withScratch(backend, S, hd, (k, heap, scratch) => {
      const y = heap.output([B * S, H * hd]);
      k.mix(heap.at(inputs.qkv as tf.TensorInfo), heap.at(inputs.probs as tf.TensorInfo), heap.at(y), scratch, B, S, H, hd);
      return y;
    });
  },
  ArlAttentionGrad: ({ inputs, backend, attrs }) => {
    const { B, S, H, hd, scale } = sizes(attrs);
    return withScratch(backend, S, hd, (k, heap, scratch) => {
      const dqkv = heap.output([B * S, 3 * H * hd]);
      const at = (name: string) => heap.at(inputs[name] as tf.TensorInfo);
      k.grad(at('dy'), at('qkv'), at('probs'), heap.at(dqkv), scratch, B, S, H, hd, scale);
      return dqkv;
    });
  },
};

/** Whether fusedSelfAttention runs here and now: the fast paths on (../fast-paths.ts), the wasm backend, SIMD. */
export function fusedAttentionApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  for (const [name, kernel] of Object.entries(KERNELS)) registerWasmKernel(name, kernel);
  return true;
}

/**
 * softmax(q·kᵀ/√hd + mask)·v over H heads of qkv [B·S, 3D] (q, k, v side by side, each [B·S, D] with the heads side by
 * side), heads merged: → [B·S, D]; differentiable in qkv (the mask [S, S] is a constant). Call where
 * fusedAttentionApplies().
 */
export const fusedSelfAttention = (qkv: tf.Tensor2D, mask: tf.Tensor2D, B: number, S: number, H: number): tf.Tensor2D => {
  const D = qkv.shape[1] / 3;
  const hd = D / H;
  if (qkv.dtype !== 'float32' || qkv.shape[0] !== B * S || !Number.isInteger(hd)) throw new Error(`fusedSelfAttention: qkv [${qkv.shape}] is not [${B * S}, 3·${H}·hd] float32`);
  if (mask.shape[0] !== S || mask.shape[1] !== S) throw new Error(`fusedSelfAttention: mask [${mask.shape}] is not [${S}, ${S}]`);
  const attrs = { B, S, H, hd, scale: 1 / Math.sqrt(hd) };
  const run = tf.customGrad((qkvIn, maskIn, save) => {
    const [x, m] = [qkvIn as tf.Tensor, maskIn as tf.Tensor];
    const probs = tf.engine().runKernel('ArlAttentionProbs', { qkv: x, mask: m }, attrs) as tf.Tensor4D;
    const y = tf.engine().runKernel('ArlAttentionMix', { qkv: x, probs }, attrs) as tf.Tensor2D;
    (save as tf.GradSaveFunc)([x, probs]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor, [sx, sp]: tf.Tensor[]) => [tf.engine().runKernel('ArlAttentionGrad', { dy, qkv: sx, probs: sp }, attrs) as tf.Tensor, tf.zerosLike(m)],
    };
  });
  return run(qkv, mask) as tf.Tensor2D;
};
