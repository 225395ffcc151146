/**
 * A trainer step's arithmetic, counted from the model's shapes and the step's tokens, and the bound it sets at this
 * machine's matmul rate (measured in the same run, on the same backend: matmulRate below).
 *
 * Per token, a forward pass multiplies the token's activations by each weight matrix it passes: a multiply and an add
 * per weight, 2 FLOPs. N, the weights that count (matmulParamsPerToken), is every 2-D matrix named `….W`: TinyLM's
 * qkv, out, fc1, fc2, head and value head, the image encoder's projection, an actor-critic's layers. Not counted: the
 * embedding tables (a lookup), LayerNorm gains and biases (one operation per activation, not per weight), LoRA factors
 * (folded into W once per call). With T the step's tokens (the trainer's own `num_tokens`, or PPO's environment steps):
 *
 *   forward                    2 · N · T   (a reference or old-policy pass; PPO's rollout)
 *   forward + backward         6 · N · T   (the backward's two products, dX and dW, each the size of the forward's:
 *                                           Kaplan et al. 2020), times num_ppo_epochs for PPO
 *   generation, cached         2 · N · T   (every prompt and completion token passes the model once)
 *   generation, re-run         2 · N · R · Σ_{t<m} (p + t)   (R rows of p prompt tokens, the forward re-run over the
 *                                           whole prefix for each of m completion tokens: what no cache costs)
 *
 * The step's FLOPs add the phases the trainer itself times (`timing/<phase>_ms`): generation (cached), reference,
 * forward_backward (or fine_tuning), rollout. Attention's own products (q·k and p·v, 4·D·S per token and layer over S
 * visible positions) are left out: at these sizes (d_model 32, S ≤ 41) they add under 10%, so the bound stays a lower
 * bound. Approximate where a step mixes kinds of tokens: a vision image token skips the head and a text token the
 * encoder (both counted for every token: ≤ 4% over); team counts each token through the mean of its two models;
 * self_improve's num_tokens adds its sampled and its fine-tuned tokens, so both its phases are counted on all of them
 * (an over-estimate: its ratio reads low). Vision's generation is counted on every row's prompt, though a group's rows
 * share one (its cached decoding encodes each once: ~1/5 of the 2·N·T counted).
 */
import * as tf from '@tensorflow/tfjs';

/** Weights a token is multiplied by in one forward pass (see above); a team's two models are averaged. */
export function matmulParamsPerToken(model: { kind: string; namedWeights(): ReadonlyMap<string, tf.Variable> }): number {
  const byRole = new Map<string, number>();
  for (const [name, w] of model.namedWeights()) {
    if (!name.endsWith('.W') || w.shape.length !== 2) continue;
    const role = model.kind === 'team' ? name.split('.')[0] : '';
    byRole.set(role, (byRole.get(role) ?? 0) + w.size);
  }
  const counts = [...byRole.values()];
  return counts.length === 0 ? 0 : counts.reduce((a, b) => a + b, 0) / counts.length;
}

export interface StepFlops {
  /** N: weights per token (matmulParamsPerToken). */
  paramsPerToken: number;
  /** T: the step's tokens (or environment steps). */
  tokensPerStep: number;
  /** FLOPs by timed phase, as the step runs them. */
  byPhase: Record<string, number>;
  /** Their sum. */
  total: number;
  /** Generation without a cache (the forward re-run per token), for comparison; null without generation, or without
   * the rows and mean completion length to count it. */
  generationRerun: number | null;
}

export interface StepShape {
  paramsPerToken: number;
  tokensPerStep: number;
  /** The phases the step timed (`timing/<phase>_ms` without prefix and suffix). */
  phases: string[];
  /** PPO's num_ppo_epochs: each rollout is trained on this many times. */
  epochs?: number;
  /** For the re-run count: rows sampled per step and their mean completion length. */
  rows?: number;
  meanCompletionLength?: number;
}

/** How many forward passes' worth (2 · N · T each) a phase costs. */
const PASSES: Record<string, number> = { generation: 1, reference: 1, rollout: 1, forward_backward: 3, fine_tuning: 3 };

export function stepFlops(shape: StepShape): StepFlops {
  const { paramsPerToken: N, tokensPerStep: T } = shape;
  if (!(N >= 0 && T >= 0)) throw new Error(`stepFlops: weights per token (${N}) and tokens per step (${T}) must be non-negative numbers`);
  const forward = 2 * N * T;
  const byPhase: Record<string, number> = {};
  for (const phase of shape.phases) {
    const passes = PASSES[phase];
    if (passes === undefined) continue; // optimizer, evaluation: not counted
    byPhase[phase] = passes * forward * (phase === 'forward_backward' ? (shape.epochs ?? 1) : 1);
  }
  let generationRerun: number | null = null;
  if (shape.phases.includes('generation') && shape.rows && shape.meanCompletionLength !== undefined) {
    const m = shape.meanCompletionLength;
    const p = T / shape.rows - m; // prompt tokens per row (image tokens included)
    // Σ_{t<m} (p + t) = m·p + m(m − 1)/2 positions per row, m the mean completion length.
    generationRerun = 2 * N * shape.rows * (m * p + (m * (m - 1)) / 2);
  }
  return { paramsPerToken: N, tokensPerStep: T, byPhase, total: Object.values(byPhase).reduce((a, b) => a + b, 0), generationRerun };
}

export interface MatmulRate {
  /** The square matmul timed: n × n times n × n. */
  n: number;
  repeats: number;
  /** Best of the repeats, 2·n³ FLOPs over its time: the rate the bound assumes. */
  gflops: number;
  /** Median of the repeats, for how noisy the machine was. */
  medianGflops: number;
}

/** What one kernel call costs when it has almost no arithmetic: dispatch (tfjs's engine, the backend's bookkeeping). */
export interface KernelCallCost {
  /** Microseconds per call: the best of the repeats of `calls` one-element adds, each repeat's time over `calls`. */
  usPerKernel: number;
  calls: number;
  repeats: number;
}

/**
 * A floor under any step besides its FLOPs: each tfjs kernel a step runs costs at least one dispatch, however small
 * its tensors. Measured as chained one-element adds (read back once per repeat), best repeat.
 */
export async function kernelCallCost(calls = 2000, repeats = 7): Promise<KernelCallCost> {
  const one = tf.scalar(1);
  let best = Infinity;
  try {
    for (let r = 0; r < repeats + 1; r++) {
      const start = performance.now();
      let x = tf.clone(one);
      for (let i = 0; i < calls; i++) {
        const next = tf.add(x, one) as tf.Scalar;
        x.dispose();
        x = next;
      }
      await x.data();
      x.dispose();
      if (r > 0) best = Math.min(best, (performance.now() - start) / calls); // the first repeat warms the JIT
    }
  } finally {
    one.dispose();
  }
  return { usPerKernel: best * 1000, calls, repeats };
}

/** The registered kernels `run` dispatches (tf.profile also lists the ops and gradient scopes around them: not counted). */
export async function countKernels(run: () => Promise<unknown> | unknown): Promise<number> {
  const info = await tf.profile(async () => {
    await run();
  });
  return info.kernels.filter((k) => tf.getKernel(k.name, tf.getBackend()) != null).length;
}

/**
 * The current backend's matmul rate: an n × n by n × n tf.matMul, read back each time, repeated; the best repeat is the
 * rate (the least disturbed by other processes). 256³ is 33.6 MFLOP, about a millisecond at wasm's rate here.
 */
export async function matmulRate(n = 256, repeats = 30): Promise<MatmulRate> {
  const [a, b] = [tf.randomNormal([n, n]), tf.randomNormal([n, n])];
  const times: number[] = [];
  try {
    for (let i = 0; i < repeats + 3; i++) {
      const start = performance.now();
      const c = tf.matMul(a, b);
      await c.data();
      c.dispose();
      if (i >= 3) times.push(performance.now() - start); // three warm-up products: XNNPACK packs, the JIT tiers up
    }
  } finally {
    tf.dispose([a, b]);
  }
  const flops = 2 * n ** 3;
  const sorted = [...times].sort((x, y) => x - y);
  return { n, repeats, gflops: flops / (sorted[0] * 1e6), medianGflops: flops / (sorted[Math.floor(sorted.length / 2)] * 1e6) };
}
