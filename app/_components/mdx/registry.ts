import type { ChapterComponentName } from '@/lib/content/components';
import { AdvantageCalculator } from '../widgets/AdvantageCalculator';
import { ClipVisualizer } from '../widgets/ClipVisualizer';
import { DpoLossExplorer } from '../widgets/DpoLossExplorer';
import { GaeCalculator } from '../widgets/GaeCalculator';
import { LoraCalculator } from '../widgets/LoraCalculator';
import { TrajectoryValidator } from '../widgets/TrajectoryValidator';
import { DistDemo } from '../widgets/DistDemo';
import { MdpStepper } from '../widgets/MdpStepper';
import { MemoryCalculator } from '../widgets/MemoryCalculator';
import { PipelineTimeline } from '../widgets/PipelineTimeline';
import { RingAllReduce } from '../widgets/RingAllReduce';
import { Exercise } from '../exercises/Exercise';
import { Callout, DeepDive, Figure, KeyTakeaways, Pitfall, References } from './Admonitions';
import { LabEmbed } from './LabEmbed';
import { Quiz } from './Quiz';

/** The one map from chapter tags to components; its keys must equal CHAPTER_COMPONENTS (tested). */
export const mdxComponents = {
  Callout,
  Pitfall,
  DeepDive,
  Figure,
  Quiz,
  LabEmbed,
  KeyTakeaways,
  References,
  AdvantageCalculator,
  ClipVisualizer,
  GaeCalculator,
  DpoLossExplorer,
  LoraCalculator,
  TrajectoryValidator,
  MemoryCalculator,
  PipelineTimeline,
  RingAllReduce,
  DistDemo,
  MdpStepper,
  Exercise,
} satisfies Record<ChapterComponentName, unknown>;
