/**
 * What the graders of the tiny-LM labs share: the problems of an evaluation set, a model freed whatever happens, and
 * the check that a weights file holds the lab's tiny LM. Each trainer's grading module (beside this file) adds only
 * what is its own.
 */
import { ARCH_FIELDS, resolveConfig, type TinyLMConfig } from '@/lib/models/config';
import { checkTinyLMHeader } from '@/lib/models/shapes';
import type { WeightsFile } from '@/lib/models/weights-file';
import { createRng, type Rng } from '@/lib/random';
import type { Metrics } from '@/lib/train/run';
import { inTensorScope } from '@/lib/train/scope';
import type { EvalSet } from './types';

/** Problems of a task's test split: its fixed test set, or a sample drawn with the instructor's seed. */
export function problemsOf<P>(task: { testSet(n: number): P[]; sample(split: 'test', n: number, rng: Rng): P[] }, set: EvalSet, publicSize: number): P[] {
  return set.kind === 'public' ? task.testSet(publicSize) : task.sample('test', set.samples, gradeRng(set));
}

/** The random stream a seeded evaluation set is drawn from: the same seed, the same problems, on every regrade. */
export const gradeRng = (set: Extract<EvalSet, { kind: 'seeded' }>): Rng => createRng(set.seed).fork('grade');

/** Runs `body` on `model` in a tensor scope, and frees the model whether it succeeds or throws. */
export async function withModel<M extends { dispose(): void }>(model: M, body: (model: M) => Promise<Metrics>): Promise<Metrics> {
  try {
    return await inTensorScope(() => body(model));
  } finally {
    model.dispose();
  }
}

/**
 * Why `file` is not the lab's tiny LM `expected` (for trainer `trainer`), or null: the file's kind, every architecture
 * field, and LoRA adapters of rank `loraRank` (null: the run trains none, so the file must hold none).
 */
export function tinyLmProblem(trainer: string, file: WeightsFile, expected: TinyLMConfig, loraRank: number | null = null): string | null {
  if (file.kind !== 'tiny-lm') return `the weights are a '${file.kind}' model; ${trainer} trains a 'tiny-lm'`;
  const table = file.tensors.map((t) => ({ name: t.name, shape: t.shape }));
  const header = resolveConfig(checkTinyLMHeader(file.config, table));
  const want = resolveConfig(expected);
  for (const key of [...ARCH_FIELDS, 'value_head'] as const) {
    if (header[key] !== want[key]) return `${key} is ${header[key]} in the weights but ${want[key]} in the lab's model`;
  }
  if (loraRank !== null && header.lora?.r !== loraRank) return `the config trains LoRA rank ${loraRank}, the weights hold ${header.lora ? `rank ${header.lora.r}` : 'no adapters'}`;
  if (loraRank === null && header.lora) return 'the weights hold LoRA adapters, which this config does not train';
  return null;
}
