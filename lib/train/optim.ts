import * as tf from '@tensorflow/tfjs';
import { adamKernelApplies, adamUpdate, sumOfSquares } from './adam-kernel/adam-kernel';

/**
 * Adam's ε, pinned. tfjs takes it from the backend when none is given: 1e-7 on cpu, wasm and WebGPU, but 1e-4 on WebGL
 * wherever float32 rendering works (its floatPrecision() reports 16 in exactly that case, tfjs 4.22), which made the same
 * seeded run train differently on WebGL. 1e-7 is what every seeded figure in the course was measured with; PyTorch's
 * and TRL's default (adam_epsilon) is 1e-8, a difference that only matters for gradients near 1e-7.
 */
export const ADAM_EPSILON = 1e-7;

/** Adam as TRL's default optimizer runs it (β₁ 0.9, β₂ 0.999), with ε the same on every backend. */
export function adam(learningRate: number, epsilon = ADAM_EPSILON): tf.AdamOptimizer {
  return new FastAdam(learningRate, 0.9, 0.999, epsilon);
}

/** tfjs's Adam state, private in its typings: FastAdam keeps it exactly as AdamOptimizer does, so either path can run. */
interface AdamState {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: { originalName: string; variable: tf.Variable }[];
  accumulatedSecondMoment: { originalName: string; variable: tf.Variable }[];
}

/**
 * tfjs's AdamOptimizer with, on wasm (lib/models/fast-paths.ts), the update of each variable as one kernel on tfjs-wasm's
 * heap (adam-kernel/): one call instead of fourteen kernels per variable. Same numbers bit for bit: every operation is
 * rounded to float32 as tfjs's kernels round it, in tfjs's order (adam_optimizer.ts, tfjs 4.22). optimizerStep also
 * has it clip the gradients first (clipAndApply), which saves clipByGlobalNorm's ~3 kernels per variable.
 */
class FastAdam extends tf.AdamOptimizer {
  override applyGradients(variableGradients: Parameters<tf.AdamOptimizer['applyGradients']>[0]): void {
    if (Array.isArray(variableGradients) || !adamKernelApplies()) return super.applyGradients(variableGradients);
    this.update(variableGradients, 1); // g·1 = g exactly
  }

  /**
   * clipByGlobalNorm(grads, maxNorm) then applyGradients, with clipByGlobalNorm's numbers: ‖g‖ = √(0 + Σ₀ + Σ₁ + …) over
   * the gradients in order (Square, Sum, AddN, Sqrt), scale = min(1, c / (‖g‖ + 1e-6)), each in float32. Returns ‖g‖.
   * Where adamKernelApplies().
   */
  clipAndApply(grads: tf.NamedTensorMap, maxNorm: number): tf.Scalar {
    const f = Math.fround;
    let total = 0;
    for (const name of Object.keys(grads)) total = f(total + sumOfSquares(grads[name]));
    const norm = f(Math.sqrt(total));
    this.update(grads, Math.min(1, f(f(maxNorm) / f(norm + f(1e-6)))));
    return tf.scalar(norm);
  }

  private update(variableGradients: tf.NamedTensorMap, scale: number): void {
    const state = this as unknown as AdamState;
    const f = Math.fround;
    const accBeta1 = state.accBeta1.dataSync()[0];
    const accBeta2 = state.accBeta2.dataSync()[0];
    const constants = {
      beta1: f(this.beta1),
      beta2: f(this.beta2),
      oneMinusBeta1: f(1 - this.beta1),
      oneMinusBeta2: f(1 - this.beta2),
      correction1: f(1 - accBeta1),
      correction2: f(1 - accBeta2),
      epsilon: f(this.epsilon),
      step: f(-this.learningRate),
    };
    Object.keys(variableGradients).forEach((name, i) => {
      const value = tf.engine().registeredVariables[name];
      state.accumulatedFirstMoment[i] ??= { originalName: `${name}/m`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
      state.accumulatedSecondMoment[i] ??= { originalName: `${name}/v`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
      const gradient = variableGradients[name];
      if (gradient == null) return;
      const firstMoment = state.accumulatedFirstMoment[i].variable;
      const secondMoment = state.accumulatedSecondMoment[i].variable;
      tf.tidy(() => {
        const [m, v, x] = adamUpdate(gradient, firstMoment, secondMoment, value, scale, constants);
        firstMoment.assign(m);
        secondMoment.assign(v);
        value.assign(x);
      });
    });
    tf.tidy(() => {
      state.accBeta1.assign(tf.scalar(f(accBeta1 * constants.beta1)));
      state.accBeta2.assign(tf.scalar(f(accBeta2 * constants.beta2)));
    });
    this.incrementIterations();
  }
}

/**
 * Gradient clipping by global norm (TRL's max_grad_norm, default 1.0): g ← g · min(1, c / ‖g‖).
 * Returns the clipped gradients (new tensors; the caller disposes the inputs) and the pre-clip norm, which
 * TRL logs as `grad_norm`.
 */
export function clipByGlobalNorm(grads: tf.NamedTensorMap, maxNorm: number): { grads: tf.NamedTensorMap; norm: tf.Scalar } {
  return tf.tidy(() => {
    const names = Object.keys(grads);
    const norm = tf.sqrt(tf.addN(names.map((n) => tf.sum(tf.square(grads[n]))))) as tf.Scalar;
    const scale = tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
    const clipped: tf.NamedTensorMap = {};
    for (const n of names) clipped[n] = tf.mul(grads[n], scale);
    return { grads: clipped, norm };
  });
}

/**
 * Wall-clock time per phase of a step, logged as `timing/<phase>_ms`, plus `timing/step_ms` for the whole step from
 * the timer's creation (what the labs and `npm run bench` report). On the cpu and
 * wasm backends ops run synchronously, so these are true compute times; on WebGL/WebGPU an op returns once it is
 * queued, and the time lands in whichever phase reads data back.
 */
export class StepTimer {
  private readonly totals: Record<string, number> = {};
  private readonly started = performance.now();
  /** Time the step spent outside its own work (paused): left out of step_ms, which would otherwise count the reader's break. */
  private excluded = 0;

  add(phase: string, ms: number): void {
    this.totals[phase] = (this.totals[phase] ?? 0) + ms;
  }

  time<T>(phase: string, fn: () => T): T {
    const start = performance.now();
    try {
      return fn();
    } finally {
      this.add(phase, since(start));
    }
  }

  async timeAsync<T>(phase: string, fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.add(phase, since(start));
    }
  }

  /** Runs `fn` (a pause point) off the clock: neither a phase nor step_ms counts its time. */
  async untimed<T>(fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.excluded += since(start);
    }
  }

  metrics(): Record<string, number> {
    const phases = Object.entries(this.totals).map(([phase, ms]) => [`timing/${phase}_ms`, ms]);
    return { ...Object.fromEntries(phases), 'timing/step_ms': since(this.started) - this.excluded };
  }
}

/**
 * One optimizer update from a loss closure: grads (forward + backward), clip, apply. Only the returned grad norm
 * survives. With a timer, the two phases are logged as `forward_backward` and `optimizer`.
 */
export function optimizerStep(
  optimizer: tf.Optimizer,
  variables: tf.Variable[],
  maxGradNorm: number,
  lossFn: () => tf.Scalar,
  timer?: StepTimer,
): tf.Scalar {
  const t0 = performance.now();
  const { value, grads } = tf.variableGrads(() => freeTapeOnThrow(lossFn), variables);
  const t1 = performance.now();
  let norm: tf.Scalar;
  if (optimizer instanceof FastAdam && adamKernelApplies()) norm = optimizer.clipAndApply(grads, maxGradNorm);
  else {
    const clipped = clipByGlobalNorm(grads, maxGradNorm);
    optimizer.applyGradients(clipped.grads);
    tf.dispose(clipped.grads);
    norm = clipped.norm;
  }
  tf.dispose([value, grads]);
  timer?.add('forward_backward', t1 - t0);
  timer?.add('optimizer', since(t1));
  return norm;
}

/**
 * Runs a loss closure inside `tf.variableGrads`; if it throws, frees the tensors the gradient tape saved for the
 * backward pass. tfjs 4.22 marks those as kept and frees them only after a successful backward pass, so a loss that
 * throws midway would otherwise leak them past every scope (found by tests/unit/train/failures.test.ts).
 */
function freeTapeOnThrow(lossFn: () => tf.Scalar): tf.Scalar {
  try {
    return lossFn();
  } catch (error) {
    for (const node of tf.engine().state.activeTape ?? []) tf.dispose(node.saved ?? []);
    throw error;
  }
}

/** Wall-clock milliseconds since `start` (performance.now exists in Node, pages and workers). */
export const since = (start: number) => performance.now() - start;
