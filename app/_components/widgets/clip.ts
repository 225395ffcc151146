// ClipVisualizer's numbers, shared by the server (build-time default) and the browser (live sliders).
// Per token, −loss = min(r·A, clip(r, 1−ε, 1+ε_high)·A) with r = exp(logp − old); old = 0 so log r = logp.
import type { NumericFace } from './numeric-protocol';

export const R_MAX = 2;
const R_MIN = 1e-4; // log 0 is not finite; 1e-4 is r = 0 to the eye
const GRID = 81;
const NEAR = 1e-3; // samples this close on either side of a clip boundary put the edge of a flat region exactly on it

export type Advantage = 1 | -1;
export const ADVANTAGES: readonly Advantage[] = [1, -1];

export interface ClipParams {
  epsilon: number;
  epsilonHigh: number;
}

export interface ClipCurve {
  A: Advantage;
  /** −loss at r = 0, 1−ε, 1+ε_high, 2. The objective is linear in r between these, so the polyline is exact. */
  objective: { r: number; y: number }[];
  /** ∂loss/∂log r on a grid of r: the gradient the optimiser sees. */
  grad: { r: number; g: number }[];
  /** Intervals of r where that gradient is exactly zero (the clip is active). */
  flat: [number, number][];
}

export interface ClipPoint {
  A: Advantage;
  objective: number;
  grad: number;
}

/** Everything the widget draws for one setting of the sliders. */
export interface ClipSnapshot {
  params: ClipParams;
  ratio: number;
  curves: ClipCurve[];
  point: ClipPoint[];
}

const one = (face: NumericFace, p: ClipParams, r: number, A: Advantage) =>
  face.grpoLoss({
    logps: [[Math.log(Math.max(r, R_MIN))]],
    oldLogps: [[0]],
    advantages: [A],
    mask: [[1]],
    lossType: 'grpo',
    epsilon: p.epsilon,
    epsilonHigh: p.epsilonHigh,
  });

/** Runs of zero gradient, with edges halfway between the last moving sample and the first flat one. */
function flatIntervals(grad: { r: number; g: number }[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < grad.length; i++) {
    if (grad[i].g !== 0) continue;
    let j = i;
    while (j + 1 < grad.length && grad[j + 1].g === 0) j++;
    const lo = i === 0 ? 0 : (grad[i - 1].r + grad[i].r) / 2;
    const hi = j === grad.length - 1 ? R_MAX : (grad[j].r + grad[j + 1].r) / 2;
    out.push([lo, hi]);
    i = j;
  }
  return out;
}

/** Both curves: 8 single-token calls for the objective, one batched call (2 × ~85 rows) for the gradients. */
export async function clipCurves(face: NumericFace, p: ClipParams): Promise<ClipCurve[]> {
  const bounds = [1 - p.epsilon, 1 + p.epsilonHigh];
  const uniform = Array.from({ length: GRID }, (_, i) => (R_MAX * i) / (GRID - 1)).filter((r) => bounds.every((b) => Math.abs(r - b) > NEAR));
  const rs = [...uniform, ...bounds.flatMap((b) => [b - NEAR, b + NEAR])].sort((a, b) => a - b);
  const B = rs.length * ADVANTAGES.length;
  const knots = [0, ...bounds, R_MAX];
  // lossType 'grpo' with one token per row: loss = mean over rows, so row b's own gradient is B × grad[b].
  const [{ grad }, ...objective] = await Promise.all([
    face.grpoLoss({
      logps: ADVANTAGES.flatMap(() => rs.map((r) => [Math.log(Math.max(r, R_MIN))])),
      oldLogps: Array.from({ length: B }, () => [0]),
      advantages: ADVANTAGES.flatMap((A) => rs.map(() => A)),
      mask: Array.from({ length: B }, () => [1]),
      lossType: 'grpo',
      epsilon: p.epsilon,
      epsilonHigh: p.epsilonHigh,
    }),
    ...ADVANTAGES.flatMap((A) => knots.map((r) => one(face, p, r, A))),
  ]);
  return ADVANTAGES.map((A, k) => {
    const g = rs.map((r, i) => ({ r, g: grad[k * rs.length + i][0] * B }));
    return {
      A,
      objective: knots.map((r, i) => ({ r, y: -objective[k * knots.length + i].loss })),
      grad: g,
      flat: flatIntervals(g),
    };
  });
}

/** The objective and its gradient at one ratio, for the readout under the plots. */
export async function clipAt(face: NumericFace, p: ClipParams, r: number): Promise<ClipPoint[]> {
  const outs = await Promise.all(ADVANTAGES.map((A) => one(face, p, r, A)));
  return ADVANTAGES.map((A, k) => ({ A, objective: -outs[k].loss, grad: outs[k].grad[0][0] }));
}

export async function clipSnapshot(face: NumericFace, params: ClipParams, ratio: number): Promise<ClipSnapshot> {
  const [curves, point] = await Promise.all([clipCurves(face, params), clipAt(face, params, ratio)]);
  return { params, ratio, curves, point };
}
