import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '../wasm-heap';
import { LOGPROB_KERNEL_WASM_BASE64 } from './wasm';

/**
 * Per-token log-probs and entropies over a vocabulary (lib/rl/logprobs.ts's log-softmax, pick and entropy) as five
 * kernels on tfjs-wasm's heap instead of ~20 tfjs kernels over [rows, V], with the same numbers bit for bit
 * (assembly/index.ts says which operations, in which order). logSoftmax and pick carry autodiff's gradients; the entropy
 * has none (the trainers only log it), and differentiating through it fails loudly in tfjs rather than silently here.
 */

interface KernelExports {
  TABLE_BYTES: WebAssembly.Global;
  writeTables(tab: number): void;
  logSoftmax(x: number, logp: number, rows: number, V: number, temperature: number, scaled: number, tab: number): void;
  logSoftmaxGrad(dy: number, logp: number, dx: number, rows: number, V: number, temperature: number, scaled: number, tab: number): void;
  pick(logp: number, targets: number, logps: number, rows: number, V: number): void;
  pickGrad(dy: number, targets: number, dlogp: number, rows: number, V: number): void;
  entropy(logp: number, out: number, rows: number, V: number, tab: number): void;
}

const LOG_SOFTMAX = 'ArlLogSoftmax';
const LOG_SOFTMAX_GRAD = 'ArlLogSoftmaxGrad';
const PICK = 'ArlPickTargets';
const PICK_GRAD = 'ArlPickTargetsGrad';
const ENTROPY = 'ArlEntropy';
const kernelFor = heapKernel<KernelExports>(LOGPROB_KERNEL_WASM_BASE64);

// expf's and logf's lookup tables, once per heap: allocated on it when its module is first used, and kept (512 bytes).
const tables = new WeakMap<KernelExports, number>();
function tablesOf(backend: unknown, k: KernelExports): number {
  let at = tables.get(k);
  if (at === undefined) {
    at = heapOf(backend).malloc(k.TABLE_BYTES.value as number);
    k.writeTables(at);
    tables.set(k, at);
  }
  return at;
}

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };
const scaling = (attrs?: tf.NamedAttrMap): [number, number] => {
  const temperature = Number(attrs?.temperature);
  return [temperature, temperature === 1 ? 0 : 1];
};

function logSoftmaxKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const { x } = inputs as Record<string, tf.TensorInfo>;
  const [rows, V] = x.shape;
  const heap = heapOf(backend);
  const out = heap.output([rows, V]);
  const k = kernelFor(backend)!;
  k.logSoftmax(heap.at(x), heap.at(out), rows, V, ...scaling(attrs), tablesOf(backend, k));
  return out;
}

function logSoftmaxGradKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const { dy, logp } = inputs as Record<string, tf.TensorInfo>;
  const [rows, V] = logp.shape;
  const heap = heapOf(backend);
  const out = heap.output([rows, V]);
  const k = kernelFor(backend)!;
  k.logSoftmaxGrad(heap.at(dy), heap.at(logp), heap.at(out), rows, V, ...scaling(attrs), tablesOf(backend, k));
  return out;
}

function pickKernel({ inputs, backend }: KernelArgs): tf.TensorInfo {
  const { logp, targets } = inputs as Record<string, tf.TensorInfo>;
  const [rows, V] = logp.shape;
  const heap = heapOf(backend);
  const out = heap.output([rows]);
  kernelFor(backend)!.pick(heap.at(logp), heap.at(targets), heap.at(out), rows, V);
  return out;
}

function pickGradKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const { dy, targets } = inputs as Record<string, tf.TensorInfo>;
  const rows = dy.shape[0];
  const V = Number(attrs?.V);
  const heap = heapOf(backend);
  const out = heap.output([rows, V]);
  kernelFor(backend)!.pickGrad(heap.at(dy), heap.at(targets), heap.at(out), rows, V);
  return out;
}

function entropyKernel({ inputs, backend }: KernelArgs): tf.TensorInfo {
  const { logp } = inputs as Record<string, tf.TensorInfo>;
  const [rows, V] = logp.shape;
  const heap = heapOf(backend);
  const out = heap.output([rows]);
  const k = kernelFor(backend)!;
  k.entropy(heap.at(logp), heap.at(out), rows, V, tablesOf(backend, k));
  return out;
}

/** Whether the kernels run here and now: the fast paths on (../fast-paths.ts), wasm, WebAssembly SIMD. */
export function logprobKernelApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(LOG_SOFTMAX, logSoftmaxKernel);
  registerWasmKernel(LOG_SOFTMAX_GRAD, logSoftmaxGradKernel);
  registerWasmKernel(PICK, pickKernel);
  registerWasmKernel(PICK_GRAD, pickGradKernel);
  registerWasmKernel(ENTROPY, entropyKernel);
  return true;
}

const run = (name: string, inputs: tf.NamedTensorMap, attrs: tf.NamedAttrMap = {}) => tf.engine().runKernel(name, inputs, attrs) as tf.Tensor;

/** tf.logSoftmax(x / temperature) over the last axis of x [rows, V] (float32), with its gradient. Where logprobKernelApplies(). */
export function fusedLogSoftmax(x: tf.Tensor2D, temperature: number): tf.Tensor2D {
  if (x.rank !== 2 || x.dtype !== 'float32') throw new Error(`fusedLogSoftmax: float32 [rows, V] expected, got ${x.dtype} [${x.shape}]`);
  const op = tf.customGrad((input, save) => {
    const logp = run(LOG_SOFTMAX, { x: input as tf.Tensor }, { temperature });
    (save as tf.GradSaveFunc)([logp]);
    return { value: logp, gradFunc: (dy: tf.Tensor, [saved]: tf.Tensor[]) => run(LOG_SOFTMAX_GRAD, { dy, logp: saved }, { temperature }) };
  });
  return op(x) as tf.Tensor2D;
}

/** logp[r, targets[r]] for logp [rows, V] and int32 targets [rows] (0 where a target is outside [0, V)), with its gradient. */
export function fusedPick(logp: tf.Tensor2D, targets: tf.Tensor1D): tf.Tensor1D {
  if (targets.dtype !== 'int32' || targets.rank !== 1 || targets.shape[0] !== logp.shape[0]) {
    throw new Error(`fusedPick: int32 targets [${logp.shape[0]}] expected, got ${targets.dtype} [${targets.shape}]`);
  }
  const V = logp.shape[1];
  const op = tf.customGrad((lp, ids, save) => {
    (save as tf.GradSaveFunc)([ids as tf.Tensor]);
    return {
      value: run(PICK, { logp: lp as tf.Tensor, targets: ids as tf.Tensor }),
      // No gradient reaches the targets (integers); tfjs never asks for it, but customGrad wants one per input.
      gradFunc: (dy: tf.Tensor, [savedIds]: tf.Tensor[]) => [run(PICK_GRAD, { dy, targets: savedIds }, { V }), tf.zerosLike(savedIds)],
    };
  });
  return op(logp, targets) as tf.Tensor1D;
}

/** −Σⱼ exp(logpⱼ)·logpⱼ per row of logp [rows, V]; not differentiable. */
export function fusedEntropy(logp: tf.Tensor2D): tf.Tensor1D {
  return run(ENTROPY, { logp }) as tf.Tensor1D;
}
