// PPO's whole update for the small actor-critic (lib/models/actor-critic.ts) on this module's own memory
// (AssemblyScript, compiled by `npm run build:kernel` into ../wasm.ts). Stock, one minibatch update is ~380 tfjs kernels
// (the MLP forward and backward, log-softmax, the clipped policy and value losses, entropy, their statistics, clipping
// and Adam on eight variables) and each kernel costs more in dispatch than this 2,053-weight model's arithmetic: the
// bench measured PPO's step at 46× its FLOP bound, nearly all of it bookkeeping. The host (../engine.ts) keeps the
// weights, Adam's moments and the rollout here and calls these functions in order; none allocates.
//
// Not bit for bit with the tfjs path (that one rounds each op of tfjs-wasm's libm and autodiff's order): tanh here is a
// rational approximation, within 4e-7 of the true value (tests/unit/train/ppo-kernel.test.ts sweeps it), and the
// gradient is the closed form below rather than autodiff's chain. The test checks it against the tfjs path and against
// central differences.
//
// The products are the dense kernel's tiles (../../../models/dense-kernel/assembly: 4 × 8 SIMD register tiles, weights
// padded to whole 8-float rows), and clipping with Adam is the Adam kernel's code (../../adam-kernel/assembly).
export { forward, product, productTransposedA, transposePadded, columnSums, prepareDz } from '../../../models/dense-kernel/assembly/index';
export { sumOfSquares, adamUpdate } from '../../adam-kernel/assembly/index';

/** Where the host may start laying out its buffers (after this module's static data). */
export function heapBase(): usize {
  return __heap_base;
}

// tanh as a 13/6 rational function of the input clamped to ±7.905 (Eigen's generic_fast_tanh_float coefficients), and
// x itself below 4e-4, where the odd series' next term is under float32's resolution.
const CLAMP: f32 = 7.90531110763549805;
const TINY: f32 = 0.0004;
const A1: f32 = 4.89352455891786e-3, A3: f32 = 6.37261928875436e-4, A5: f32 = 1.48572235717979e-5, A7: f32 = 5.12229709037114e-8;
const A9: f32 = -8.60467152213735e-11, A11: f32 = 2.00018790482477e-13, A13: f32 = -2.76076847742355e-16;
const B0: f32 = 4.89352518554385e-3, B2: f32 = 2.268434632439e-3, B4: f32 = 1.18534705686654e-4, B6: f32 = 1.19825839466702e-6;

@inline function tanh4(x: v128): v128 {
  const c = f32x4.min(f32x4.max(x, f32x4.splat(-CLAMP)), f32x4.splat(CLAMP));
  const x2 = f32x4.mul(c, c);
  let p = f32x4.add(f32x4.mul(f32x4.splat(A13), x2), f32x4.splat(A11));
  p = f32x4.add(f32x4.mul(p, x2), f32x4.splat(A9));
  p = f32x4.add(f32x4.mul(p, x2), f32x4.splat(A7));
  p = f32x4.add(f32x4.mul(p, x2), f32x4.splat(A5));
  p = f32x4.add(f32x4.mul(p, x2), f32x4.splat(A3));
  p = f32x4.add(f32x4.mul(p, x2), f32x4.splat(A1));
  p = f32x4.mul(p, c);
  let q = f32x4.add(f32x4.mul(f32x4.splat(B6), x2), f32x4.splat(B4));
  q = f32x4.add(f32x4.mul(q, x2), f32x4.splat(B2));
  q = f32x4.add(f32x4.mul(q, x2), f32x4.splat(B0));
  const y = f32x4.div(p, q);
  // Small inputs pass through; NaN too (the clamp would turn it into ±7.9).
  const keep = v128.or(f32x4.lt(f32x4.abs(x), f32x4.splat(TINY)), f32x4.ne(x, x));
  return v128.bitselect(x, y, keep);
}

/** x ← tanh(x) for n floats. */
export function tanhInPlace(x: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) v128.store(x + <usize>i * 4, tanh4(v128.load(x + <usize>i * 4)));
  for (; i < n; i++) {
    const p = x + <usize>i * 4;
    store<f32>(p, f32x4.extract_lane(tanh4(f32x4.splat(load<f32>(p))), 0));
  }
}

/** dy ← dy · (1 − y²) for n floats: the gradient through y = tanh(z), in place. */
export function tanhBackward(dy: usize, y: usize, n: i32): void {
  let i = 0;
  const one = f32x4.splat(1);
  for (; i + 4 <= n; i += 4) {
    const at = <usize>i * 4;
    const t = v128.load(y + at);
    v128.store(dy + at, f32x4.mul(v128.load(dy + at), f32x4.sub(one, f32x4.mul(t, t))));
  }
  for (; i < n; i++) {
    const at = <usize>i * 4;
    const t = load<f32>(y + at);
    store<f32>(dy + at, load<f32>(dy + at) * (1 - t * t));
  }
}

/** to [count, width] ← rows idx[0], idx[1], … of from [·, width]. */
export function gatherRows(from: usize, width: i32, idx: usize, count: i32, to: usize): void {
  const bytes = <usize>width * 4;
  for (let r = 0; r < count; r++) memory.copy(to + <usize>r * bytes, from + <usize>load<i32>(idx + <usize>r * 4) * bytes, bytes);
}

/**
 * The heads' output [rows, stride] (policy logits in columns 0…A−1, the value in column A) → log π(· | s) [rows, A]
 * (log-softmax: z − max − log Σ exp(z − max)) and V(s) [rows].
 */
export function policyOutputs(out: usize, stride: i32, A: i32, rows: i32, logp: usize, values: usize): void {
  for (let r = 0; r < rows; r++) {
    const z = out + <usize>(r * stride) * 4;
    const lse = logSumExp(z, A);
    for (let j = 0; j < A; j++) store<f32>(logp + <usize>(r * A + j) * 4, load<f32>(z + <usize>j * 4) - lse);
    store<f32>(values + <usize>r * 4, load<f32>(z + <usize>A * 4));
  }
}

/** max + log Σⱼ exp(zⱼ − max) over A logits. */
@inline function logSumExp(z: usize, A: i32): f32 {
  let m = load<f32>(z);
  for (let j = 1; j < A; j++) m = max(m, load<f32>(z + <usize>j * 4));
  let s: f32 = 0;
  for (let j = 0; j < A; j++) s += Mathf.exp(load<f32>(z + <usize>j * 4) - m);
  return m + Mathf.log(s);
}

/**
 * The PPO loss of one minibatch (the rows idx[r] of the rollout's arrays) and its gradient with respect to the heads'
 * output, as ppo-trainer.ts's tfjs path defines it (lib/rl/ppo.ts, TRL's and CleanRL's formulas), with M rows:
 *   lᵣ = log-softmax(zᵣ), ρᵣ = exp(lᵣ[aᵣ] − l_oldᵣ), pg = (1/M) Σ max(−Aᵣ·ρᵣ, −Aᵣ·clip(ρᵣ, 1 − c, 1 + c))
 *   Hᵣ = −Σⱼ pᵣⱼ·lᵣⱼ, entropy = (1/M) Σ Hᵣ
 *   v̂ᵣ = min(max(vᵣ, V_oldᵣ − c_v), V_oldᵣ + c_v), vf = ½ (1/M) Σ max((vᵣ − Rᵣ)², (v̂ᵣ − Rᵣ)²)
 *   loss = pg + vf_coef · vf − ent_coef · entropy
 * d loss / d zᵣⱼ = gᵣ·(δ(j, aᵣ) − pᵣⱼ) + (ent_coef/M)·pᵣⱼ·(lᵣⱼ + Hᵣ), where gᵣ = d pg / d lᵣ[aᵣ] = ρᵣ·(−Aᵣ)/M when the
 * unclipped term is the larger (ties included, as tf.maximum's gradient) or ρ lies inside the clip range, else 0;
 * d loss / d vᵣ = (vf_coef/M)·(vᵣ − Rᵣ) when the unclipped error is the larger (ties included), else
 * (vf_coef/M)·(v̂ᵣ − Rᵣ) where vᵣ lies inside V_oldᵣ ± c_v (the clip passes its gradient), else 0.
 * Writes dOut [rows, stride] (zero beyond column A) and stats [6]: pg, vf, entropy, approx KL (½ mean (Δ log p)²),
 * the policy's and the value's clip fractions.
 */
export function ppoLoss(
  out: usize, stride: i32, A: i32, rows: i32, idx: usize,
  actions: usize, oldLogp: usize, advantages: usize, oldValues: usize, returns: usize,
  clip: f32, clipValue: f32, vfCoef: f32, entCoef: f32, dOut: usize, stats: usize,
): void {
  const inv: f32 = 1 / <f32>rows;
  let pgSum: f32 = 0, vfSum: f32 = 0, entSum: f32 = 0, klSum: f32 = 0, pgClipped: f32 = 0, vfClipped: f32 = 0;
  for (let r = 0; r < rows; r++) {
    const i = <usize>load<i32>(idx + <usize>r * 4);
    const z = out + <usize>(r * stride) * 4;
    const d = dOut + <usize>(r * stride) * 4;
    const lse = logSumExp(z, A);
    let entropy: f32 = 0;
    for (let j = 0; j < A; j++) {
      const l = load<f32>(z + <usize>j * 4) - lse;
      entropy -= Mathf.exp(l) * l;
    }
    const a = load<i32>(actions + i * 4);
    const adv = load<f32>(advantages + i * 4);
    const diff = load<f32>(z + <usize>a * 4) - lse - load<f32>(oldLogp + i * 4);
    const ratio = Mathf.exp(diff);
    const pg1 = -adv * ratio;
    const clipped = min(max(ratio, 1 - clip), 1 + clip);
    const pg2 = -adv * clipped;
    const inside = ratio >= 1 - clip && ratio <= 1 + clip;
    const g: f32 = pg1 >= pg2 || inside ? -adv * ratio * inv : 0;
    pgSum += max(pg1, pg2);
    if (pg2 > pg1) pgClipped += 1;
    klSum += diff * diff;
    entSum += entropy;
    const entScale = entCoef * inv;
    for (let j = 0; j < A; j++) {
      const l = load<f32>(z + <usize>j * 4) - lse;
      const p = Mathf.exp(l);
      store<f32>(d + <usize>j * 4, (j == a ? g * (1 - p) : -g * p) + entScale * p * (l + entropy));
    }

    const v = load<f32>(z + <usize>A * 4);
    const vOld = load<f32>(oldValues + i * 4);
    const R = load<f32>(returns + i * 4);
    const lo = vOld - clipValue, hi = vOld + clipValue;
    const vClipped = min(max(v, lo), hi);
    const vf1 = (v - R) * (v - R);
    const vf2 = (vClipped - R) * (vClipped - R);
    vfSum += max(vf1, vf2);
    if (vf2 > vf1) vfClipped += 1;
    const dv: f32 = vf1 >= vf2 ? v - R : v >= lo && v <= hi ? vClipped - R : 0;
    store<f32>(d + <usize>A * 4, vfCoef * inv * dv);
    for (let j = A + 1; j < stride; j++) store<f32>(d + <usize>j * 4, 0);
  }
  store<f32>(stats, pgSum * inv);
  store<f32>(stats + 4, 0.5 * vfSum * inv);
  store<f32>(stats + 8, entSum * inv);
  store<f32>(stats + 12, 0.5 * klSum * inv);
  store<f32>(stats + 16, pgClipped * inv);
  store<f32>(stats + 20, vfClipped * inv);
}
