import { BETA_RANGE, dpoSnapshot, LOSS_TYPES, LS_MAX, Z_MAX, type LossType } from './dpo-loss';
import { Island } from '../islands/Island';
import { serverNumericFace } from './server-rl';
import './widgets.css';
import './widgets-ppo-dpo.css';

interface Props {
  beta?: number;
  labelSmoothing?: number;
  /** The margin the readout starts at. */
  z?: number;
  /** The loss types plotted at first; the readout always lists all four. */
  show?: LossType[];
}

/**
 * The DPO loss and its gradient weight against the implicit-reward margin z, per loss_type, with sliders
 * for β and label_smoothing. The default plot is computed here, at build time; the browser starts the
 * numeric worker (tfjs) only when a slider moves.
 */
export async function DpoLossExplorer({ beta = 0.1, labelSmoothing = 0, z = 2, show = ['sigmoid', 'hinge'] }: Props) {
  const checks: [string, boolean][] = [
    [`beta={${beta}} must be in [${BETA_RANGE.join(', ')}]`, beta >= BETA_RANGE[0] && beta <= BETA_RANGE[1]],
    [`labelSmoothing={${labelSmoothing}} must be in [0, ${LS_MAX}]`, labelSmoothing >= 0 && labelSmoothing <= LS_MAX],
    [`z={${z}} must be in [−${Z_MAX}, ${Z_MAX}]`, Math.abs(z) <= Z_MAX],
    [`show must list loss types among ${LOSS_TYPES.join(', ')}`, show.every((t) => LOSS_TYPES.includes(t))],
  ];
  for (const [message, ok] of checks) if (!ok) throw new Error(`<DpoLossExplorer>: ${message}`);
  const initial = await dpoSnapshot(await serverNumericFace(), { beta, labelSmoothing }, z);
  return <Island name="DpoLossExplorer" props={{ initial, initialShow: show }} />;
}
