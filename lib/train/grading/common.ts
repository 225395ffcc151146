/**
 * What the graders of the tiny-LM labs share besides the evaluation set (eval-problems.ts) and the architecture
 * comparison (lm-architecture.ts): a model freed whatever happens, and the check that a weights file holds the lab's
 * tiny LM with the adapters its config trains.
 */
import type { TinyLMConfig } from '@/lib/models/config';
import { checkTinyLMHeader } from '@/lib/models/shapes';
import type { WeightsFile } from '@/lib/models/weights-file';
import type { Metrics } from '@/lib/train/run';
import { inTensorScope } from '@/lib/train/scope';
import { lmArchitectureProblem } from './lm-architecture';

/** Runs `body` on `model` in a tensor scope, and frees the model whether it succeeds or throws. */
export async function withModel<M extends { dispose(): void }>(model: M, body: (model: M) => Promise<Metrics>): Promise<Metrics> {
  try {
    return await inTensorScope(() => body(model));
  } finally {
    model.dispose();
  }
}

/**
 * Why `file` is not the lab's tiny LM `expected` for trainer `trainer`, or null: the file's kind, every field that
 * fixes a weight's shape or the forward pass, and LoRA adapters of rank `loraRank` (null: the run trains none, so the
 * file must hold none; their other settings are the run's config, not the weights').
 */
export function tinyLmProblem(trainer: string, file: WeightsFile, expected: TinyLMConfig, loraRank: number | null = null): string | null {
  if (file.kind !== 'tiny-lm') return `the weights are a '${file.kind}' model; ${trainer} trains a 'tiny-lm'`;
  const { lora, ...header } = checkTinyLMHeader(file.config, file.tensors.map((t) => ({ name: t.name, shape: t.shape })));
  const shapes = lmArchitectureProblem('', header, expected);
  if (shapes !== null) return shapes;
  if (loraRank !== null && lora?.r !== loraRank) return `the config trains LoRA rank ${loraRank}, the weights hold ${lora ? `rank ${lora.r}` : 'no adapters'}`;
  if (loraRank === null && lora) return 'the weights hold LoRA adapters, which this config does not train';
  return null;
}
