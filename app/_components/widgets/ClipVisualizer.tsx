import { Island } from '../islands/Island';
import { clipSnapshot, type ClipParams } from './clip';
import { serverNumericFace } from './server-rl';
import './widgets.css';

const RANGE = [0.05, 0.5] as const;
const DEFAULT_RATIO = 1.4; // right of 1 + ε: A = +1 is clipped there, A = −1 is not

/**
 * The clipped surrogate per token against the ratio r, for A = ±1, with sliders for ε and ε_high. The
 * default plot is computed here, at build time; the browser starts the numeric worker (tfjs) only when a slider moves.
 */
export async function ClipVisualizer({ epsilon = 0.2, epsilonHigh = epsilon }: Partial<ClipParams>) {
  for (const [name, v] of Object.entries({ epsilon, epsilonHigh })) {
    if (!(v >= RANGE[0] && v <= RANGE[1])) throw new Error(`<ClipVisualizer ${name}={${v}}>: must be in [${RANGE.join(', ')}]`);
  }
  const initial = await clipSnapshot(await serverNumericFace(), { epsilon, epsilonHigh }, DEFAULT_RATIO);
  return <Island name="ClipVisualizer" props={{ initial, range: RANGE }} />;
}
