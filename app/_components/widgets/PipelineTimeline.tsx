import { Island } from '../islands/Island';
import { settingsProblem, type PipelineSettings } from './pipeline-options';
import './widgets.css';
import './widgets-dist.css';

/**
 * GPipe, 1F1B and interleaved 1F1B laid out in time for p stages and m micro-batches (lib/dist's simulator),
 * with the bubble fraction simulated and by formula. Plain arithmetic: no tfjs.
 */
export function PipelineTimeline({ schedule = '1f1b', stages = 4, microbatches = 8, chunks = 2 }: Partial<PipelineSettings>) {
  const initial = { schedule, stages, microbatches, chunks };
  const problem = settingsProblem(initial);
  if (problem) throw new Error(`<PipelineTimeline>: ${problem}`);
  return <Island name="PipelineTimeline" props={{ initial }} />;
}
