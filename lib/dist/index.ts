/**
 * The numeric face of chapter 3 (distributed training): plain arithmetic, no tfjs, so a chapter widget can
 * import it for the price of a few kilobytes. Each function documents its convention and its source.
 * The tfjs demonstrations (sharded training equals unsharded training) live in ./equivalence.ts.
 */
export { ADAM_K, ZERO_STAGES, zeroBreakdown, zeroCommunication, zeroMemory, type ZeroArgs, type ZeroBreakdown, type ZeroStage } from './zero';
export { pipelineBubble, simulatePipeline, stageOrder, SCHEDULES, type PipelineArgs, type PipelineOp, type PipelineTimeline, type Schedule } from './pipeline';
export { ringAllReduceBytes, ringAllReduceSteps, type RingArgs, type RingStep, type RingTransfer } from './ring';
export { embeddingParams, findModel, layerParams, MODEL_PRESETS, paramCount, type ModelShape } from './models';
export {
  activationsPerLayer,
  DEFAULT_LAYOUT,
  GB,
  GPU_SIZES_GB,
  layoutProblems,
  memoryPerGpu,
  RECOMPUTE,
  type Layout,
  type MemoryReport,
  type Recompute,
} from './memory';
