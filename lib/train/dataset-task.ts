/**
 * A reader's dataset (lib/tasks/dataset.ts) as the task an LM trainer reads, checked against the model it trains.
 * Every arithmetic checkpoint shares one vocabulary and context, so the same limits hold in the lab, the CLI and the
 * trainer: the page and the CLI check a file when it is loaded, the trainer again when it is built.
 */
import { checkFits, createDatasetTask, DatasetError, type Dataset, type ModelLimits } from '@/lib/tasks/dataset';
import type { PromptTask } from '@/lib/tasks/task';
import { ARITHMETIC_CHARS } from '@/lib/tasks/tokenizer';
import { createLabTask, labModelConfig } from './lab-setup';

/** What a reader's dataset must fit: the arithmetic models' vocabulary and context (22 tokens). */
export function datasetLimits(): ModelLimits {
  return { chars: ARITHMETIC_CHARS, contextLength: labModelConfig(createLabTask()).context_length };
}

/**
 * A reader's dataset as the task a trainer reads, checked against `model` (vocabulary, context; a GRPO run also needs
 * room for `sampledCompletion` tokens); the built-in addition task when there is none.
 */
export function taskWithDataset(trainer: 'sft' | 'grpo', dataset: Dataset | undefined, model: { config: { context_length: number } }, sampledCompletion?: number): PromptTask {
  if (!dataset) return createLabTask();
  if (dataset.kind !== 'prompt-answer') throw new DatasetError(`${trainer} trains on prompt/answer lines, not preference pairs`);
  const limits = { chars: ARITHMETIC_CHARS, contextLength: model.config.context_length };
  checkFits(dataset, limits, sampledCompletion);
  return createDatasetTask(dataset, createLabTask().tokenizer, limits.contextLength);
}
