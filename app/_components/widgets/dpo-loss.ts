// DpoLossExplorer's numbers, shared by the server (build-time default) and the browser (live sliders).
// The margin z = (log π(y_w) − log π_ref(y_w)) − (log π(y_l) − log π_ref(y_l)); with the references at 0
// and the rejected log-prob at 0, the chosen log-prob is z itself.
import { DPO_LOSS_TYPES } from '@/lib/rl/choices';
import type { NumericFace } from './numeric-protocol';

export const Z_MAX = 10;
export const BETA_RANGE = [0.01, 1] as const;
export const LS_MAX = 0.45;
export const LOSS_TYPES = DPO_LOSS_TYPES;
export type LossType = (typeof LOSS_TYPES)[number];
/** The loss types that read label_smoothing. */
export const SMOOTHED: readonly LossType[] = ['sigmoid', 'robust'];

// The face returns only the batch-mean loss, so each loss sample is a single-row call: few of them, each
// with its exact slope, joined by cubic Hermite curves (exact for IPO's parabola, within a pixel for sigmoid).
const LOSS_KNOTS: Record<LossType, number> = { sigmoid: 21, robust: 21, ipo: 5, hinge: 0 };
const WEIGHT_GRID = 201; // one batched call per loss type
const NEAR = 1e-3; // samples this close on either side of the hinge's kink put its step exactly there

export interface DpoParams {
  beta: number;
  labelSmoothing: number;
}

export interface DpoCurve {
  type: LossType;
  /**
   * The loss against z at a few knots, with its slope dloss/dz there. Smooth types are drawn as cubic
   * Hermite curves through them; hinge, piecewise linear, as straight segments between its knots (±10
   * and the kink), which is exact.
   */
  loss: { z: number; y: number; dy: number }[];
  smooth: boolean;
  /** −∂loss/∂z: how hard one gradient step pushes the margin up. */
  weight: { z: number; y: number }[];
}

export interface DpoPoint {
  type: LossType;
  loss: number;
  weight: number;
  /** β·z: the implicit reward margin, chosenRewards − rejectedRewards from the face. */
  margin: number;
}

/** Everything the widget draws for one setting of the sliders. */
export interface DpoSnapshot {
  params: DpoParams;
  z: number;
  /** All four loss types, in LOSS_TYPES order, so ticking one needs no computation. */
  curves: DpoCurve[];
  points: DpoPoint[];
}

/** Where the hinge loss 1 − βz reaches 0, if inside the plot. */
export const hingeKink = (beta: number) => (1 / beta <= Z_MAX ? 1 / beta : null);
/** Where the IPO loss (z − 1/(2β))² is 0, if inside the plot. */
export const ipoTarget = (beta: number) => (1 / (2 * beta) <= Z_MAX ? 1 / (2 * beta) : null);

function call(face: NumericFace, type: LossType, p: DpoParams, zs: number[]) {
  const zeros = zs.map(() => 0);
  const ones = zs.map(() => 1);
  return face.dpoLoss({
    chosenLogps: zs,
    rejectedLogps: zeros,
    refChosenLogps: zeros,
    refRejectedLogps: zeros,
    beta: p.beta,
    lossType: type,
    labelSmoothing: SMOOTHED.includes(type) ? p.labelSmoothing : 0,
    // IPO divides each log-ratio by its completion length; lengths of 1 leave z as it is.
    ...(type === 'ipo' ? { chosenLengths: ones, rejectedLengths: ones } : {}),
  });
}

const grid = (n: number) => Array.from({ length: n }, (_, i) => -Z_MAX + (2 * Z_MAX * i) / (n - 1));

/** One loss type's curves: a single-row call per loss knot, two batched calls for the slopes and the weights. */
export async function dpoCurve(face: NumericFace, type: LossType, p: DpoParams): Promise<DpoCurve> {
  const kink = type === 'hinge' ? hingeKink(p.beta) : null;
  const knots = type === 'hinge' ? [-Z_MAX, ...(kink !== null && kink < Z_MAX ? [kink] : []), Z_MAX] : grid(LOSS_KNOTS[type]);
  // loss is the mean over the B rows, so row b's own gradient is B × gradChosen[b].
  const perRow = async (zs: number[]) => {
    const { gradChosen } = await call(face, type, p, zs);
    return gradChosen.map((g) => g * zs.length);
  };
  let zs = grid(WEIGHT_GRID);
  if (kink !== null) {
    zs = [...zs.filter((z) => Math.abs(z - kink) > NEAR), kink - NEAR, ...(kink + NEAR <= Z_MAX ? [kink + NEAR] : [])];
    zs.sort((a, b) => a - b);
  }
  const [slopes, grads, ...losses] = await Promise.all([perRow(knots), perRow(zs), ...knots.map((z) => call(face, type, p, [z]))]);
  const loss = knots.map((z, i) => ({ z, y: losses[i].loss, dy: slopes[i] }));
  return { type, loss, smooth: type !== 'hinge', weight: zs.map((z, i) => ({ z, y: -grads[i] })) };
}

export function dpoCurves(face: NumericFace, p: DpoParams, types: readonly LossType[] = LOSS_TYPES): Promise<DpoCurve[]> {
  return Promise.all(types.map((t) => dpoCurve(face, t, p)));
}

/** Every loss type at one margin, for the readout under the plots. */
export async function dpoAt(face: NumericFace, p: DpoParams, z: number): Promise<DpoPoint[]> {
  const outs = await Promise.all(LOSS_TYPES.map((type) => call(face, type, p, [z])));
  return LOSS_TYPES.map((type, i) => {
    const out = outs[i];
    return { type, loss: out.loss, weight: -out.gradChosen[0], margin: out.chosenRewards[0] - out.rejectedRewards[0] };
  });
}

export async function dpoSnapshot(face: NumericFace, params: DpoParams, z: number): Promise<DpoSnapshot> {
  const [curves, points] = await Promise.all([dpoCurves(face, params), dpoAt(face, params, z)]);
  return { params, z, curves, points };
}

/** 4 decimals (β can make weights as small as 0.005), fewer for large values, a real minus sign, no "−0.0000". */
export function num(x: number): string {
  const a = Math.abs(x);
  const s = x.toFixed(a >= 100 ? 1 : a >= 10 ? 2 : 4);
  return Number(s) === 0 ? s.replace('-', '') : s.replace('-', '\u2212');
}
