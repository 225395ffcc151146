import { DEFAULT_LAYOUT, layoutProblems, type Layout } from '@/lib/dist';
import { Island } from '../islands/Island';
import './widgets.css';
import './widgets-dist.css';

/**
 * Per-GPU memory (weights, gradients, Adam state, activations) of a real model under a parallel layout, and
 * whether it fits. Plain arithmetic from lib/dist: the static HTML already shows the author's layout, and
 * the browser never needs tfjs for it.
 */
export function MemoryCalculator(props: Partial<Layout>) {
  const initial: Layout = { ...DEFAULT_LAYOUT, ...props };
  const problems = layoutProblems(initial);
  if (problems.length > 0) throw new Error(`<MemoryCalculator>: ${problems.join(' ')}`);
  return <Island name="MemoryCalculator" props={{ initial }} />;
}
