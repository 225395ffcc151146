import { Island } from '../islands/Island';
import { WORKER_CHOICES } from './ring-options';
import './widgets.css';
import './widgets-dist.css';

/** The ring all-reduce step by step on small numbers (lib/dist's ringAllReduceSteps), with the bytes per link. */
export function RingAllReduce({ workers = 4 }: { workers?: number }) {
  if (!WORKER_CHOICES.includes(workers)) throw new Error(`<RingAllReduce workers={${workers}}>: must be one of ${WORKER_CHOICES.join(', ')}`);
  return <Island name="RingAllReduce" props={{ initialWorkers: workers }} />;
}
