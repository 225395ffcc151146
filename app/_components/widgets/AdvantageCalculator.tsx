import { Island } from '../islands/Island';
import { computeAdvantages, DEFAULT_REWARDS, parseRewards } from './advantages';
import { serverNumericFace } from './server-rl';
import './widgets.css';

/**
 * Group-relative advantages of rewards the reader types. The default table is computed here, at build
 * time, so the chapter shows it at once; the browser starts the numeric worker (tfjs) only when the reader edits the rewards.
 */
export async function AdvantageCalculator({ rewards = DEFAULT_REWARDS }: { rewards?: string }) {
  const parsed = parseRewards(rewards);
  if (!parsed.ok) throw new Error(`<AdvantageCalculator rewards="${rewards}">: ${parsed.error}`);
  const table = await computeAdvantages(await serverNumericFace(), parsed.groups);
  return <Island name="AdvantageCalculator" props={{ initialText: rewards, initialTable: table }} />;
}
