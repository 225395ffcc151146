import { Island } from '../islands/Island';
import './widgets.css';
import './widgets-dist.css';

const WORKERS = [2, 3, 4, 5, 6];

/** The ring all-reduce step by step on small numbers (lib/dist's ringAllReduceSteps), with the bytes per link. */
export function RingAllReduce({ workers = 4 }: { workers?: number }) {
  if (!WORKERS.includes(workers)) throw new Error(`<RingAllReduce workers={${workers}}>: must be one of ${WORKERS.join(', ')}`);
  return <Island name="RingAllReduce" props={{ initialWorkers: workers }} />;
}
