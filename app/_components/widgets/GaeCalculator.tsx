import { computeGae, DEFAULT_GAE, parseGae, type GaeInputs } from './gae';
import { Island } from '../islands/Island';
import { serverNumericFace } from './server-rl';
import './widgets.css';
import './widgets-ppo-dpo.css';

type Props = Partial<Omit<GaeInputs, 'nextValue'>> & { nextValue?: number | string };

/**
 * GAE on a short trajectory the reader types: δ_t, A_t and R_t step by step. The default table is
 * computed here, at build time, so the chapter shows it at once; the browser starts the numeric worker (tfjs) only on an edit.
 */
export async function GaeCalculator(props: Props) {
  const inputs: GaeInputs = { ...DEFAULT_GAE, ...props, nextValue: String(props.nextValue ?? DEFAULT_GAE.nextValue) };
  const parsed = parseGae(inputs);
  if (!parsed.ok) throw new Error(`<GaeCalculator>: ${Object.values(parsed.errors).join(' ')}`);
  const table = await computeGae(await serverNumericFace(), parsed.args);
  return <Island name="GaeCalculator" props={{ initialInputs: inputs, initialTable: table }} />;
}
