/**
 * The part of the islands (Island.tsx) that waits until a reader first comes to one: where each island's code is,
 * and the replay of the buttons the reader pressed before it was live.
 */
import type { ComponentProps, ComponentType } from 'react';
export { replay } from './replay';

const islands = {
  AdvantageCalculator: () => import('../widgets/AdvantageCalculatorClient').then((m) => m.AdvantageCalculatorClient),
  ClipVisualizer: () => import('../widgets/ClipVisualizerClient').then((m) => m.ClipVisualizerClient),
  GaeCalculator: () => import('../widgets/GaeCalculatorClient').then((m) => m.GaeCalculatorClient),
  DpoLossExplorer: () => import('../widgets/DpoLossExplorerClient').then((m) => m.DpoLossExplorerClient),
  LoraCalculator: () => import('../widgets/LoraCalculatorClient').then((m) => m.LoraCalculatorClient),
  TrajectoryValidator: () => import('../widgets/TrajectoryValidatorClient').then((m) => m.TrajectoryValidatorClient),
  MemoryCalculator: () => import('../widgets/MemoryCalculatorClient').then((m) => m.MemoryCalculatorClient),
  PipelineTimeline: () => import('../widgets/PipelineTimelineClient').then((m) => m.PipelineTimelineClient),
  RingAllReduce: () => import('../widgets/RingAllReduceClient').then((m) => m.RingAllReduceClient),
  DistDemo: () => import('../widgets/DistDemoClient').then((m) => m.DistDemoClient),
  MdpStepper: () => import('../widgets/MdpStepperClient').then((m) => m.MdpStepperClient),
  Quiz: () => import('../mdx/QuizClient').then((m) => m.QuizClient),
  Exercise: () => import('../exercises/ExerciseClient').then((m) => m.ExerciseClient),
  // A lab inside a chapter: its "Open the lab" button, then the lab's own chunk.
  LabLoader: () => import('@/labs/LabLoader').then((m) => m.LabLoader),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = ComponentProps<Awaited<ReturnType<(typeof islands)[N]>>>;

export function load(name: IslandName): Promise<ComponentType<object>> {
  return islands[name]() as Promise<ComponentType<object>>;
}
