import { Island } from '../islands/Island';
import './widgets.css';
import './widgets-dist.css';

/**
 * Data-parallel, tensor-parallel and ZeRO-sharded computations against their unsharded versions, run on the
 * tiny LM in a Web Worker when the reader asks. Nothing is precomputed: the point is to watch it happen.
 */
export function DistDemo() {
  return <Island name="DistDemo" props={{}} />;
}
