'use client';

// Every widget's client code as a chunk of its own. Every chapter page is the same
// route, so a client component imported directly would be downloaded by all of them; through next/dynamic
// only a page that renders the widget fetches it. Still rendered on the server (ssr), so the static HTML
// holds the build-time result, and the page hydrates the widget once its chunk arrives.
import dynamic from 'next/dynamic';

export const AdvantageCalculatorLazy = dynamic(() => import('./AdvantageCalculatorClient').then((m) => m.AdvantageCalculatorClient));
export const ClipVisualizerLazy = dynamic(() => import('./ClipVisualizerClient').then((m) => m.ClipVisualizerClient));
export const GaeCalculatorLazy = dynamic(() => import('./GaeCalculatorClient').then((m) => m.GaeCalculatorClient));
export const DpoLossExplorerLazy = dynamic(() => import('./DpoLossExplorerClient').then((m) => m.DpoLossExplorerClient));
export const LoraCalculatorLazy = dynamic(() => import('./LoraCalculatorClient').then((m) => m.LoraCalculatorClient));
export const TrajectoryValidatorLazy = dynamic(() => import('./TrajectoryValidatorClient').then((m) => m.TrajectoryValidatorClient));
export const MemoryCalculatorLazy = dynamic(() => import('./MemoryCalculatorClient').then((m) => m.MemoryCalculatorClient));
export const PipelineTimelineLazy = dynamic(() => import('./PipelineTimelineClient').then((m) => m.PipelineTimelineClient));
export const RingAllReduceLazy = dynamic(() => import('./RingAllReduceClient').then((m) => m.RingAllReduceClient));
export const DistDemoLazy = dynamic(() => import('./DistDemoClient').then((m) => m.DistDemoClient));
export const MdpStepperLazy = dynamic(() => import('./MdpStepperClient').then((m) => m.MdpStepperClient));
