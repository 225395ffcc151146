/**
 * Shared pieces of the LM trainers (SFT, GRPO, DPO): turning prompts and completions into the model's
 * input, the completion logits, and held-out evaluation by greedy decoding.
 */
import * as tf from '@tensorflow/tfjs';
import { generate } from '@/lib/models/generate';
import type { CausalLM, TinyLM } from '@/lib/models/tiny-lm';
import type { PromptTask, TaskProblem } from '@/lib/tasks/task';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import { correctnessReward, formatReward } from '@/lib/tasks/rewards';
import { createRng } from '@/lib/random';

export interface CompletionBatch {
  /** int32 [B, P + M − 1]: prompt then completion, without the last completion token (nothing to predict after it). */
  input: tf.Tensor2D;
  /** int32 [B, M]: the completion tokens each position predicts. */
  targets: tf.Tensor2D;
  /** float32 [B, M]: 1 where the completion token counts in the loss (up to and including EOS). */
  mask: tf.Tensor2D;
  promptLength: number;
  dispose(): void;
}

/**
 * Prompts all have length P (the task guarantees it), completions are right-padded to M with `pad` and
 * described by `mask`. Position P − 1 + t of the input predicts completion token t.
 */
export function completionBatch(prompts: number[][], completions: number[][], mask: number[][], pad: number): CompletionBatch {
  const P = prompts[0].length;
  const M = Math.max(...completions.map((c) => c.length));
  if (prompts.some((p) => p.length !== P)) throw new Error('completionBatch: prompts must all have the same length');
  const padded = completions.map((c) => [...c, ...Array<number>(M - c.length).fill(pad)]);
  const maskRows = mask.map((m) => [...m, ...Array<number>(M - m.length).fill(0)]);
  const input = tf.tensor2d(prompts.map((p, i) => [...p, ...padded[i]].slice(0, P + M - 1)), [prompts.length, P + M - 1], 'int32');
  const targets = tf.tensor2d(padded, [prompts.length, M], 'int32');
  const maskT = tf.tensor2d(maskRows, [prompts.length, M], 'float32');
  return { input, targets, mask: maskT, promptLength: P, dispose: () => tf.dispose([input, targets, maskT]) };
}

/** Logits for the completion positions only: [B, M, V]. Differentiable; runs inside the caller's tidy. */
export function completionLogits(model: Pick<CausalLM, 'forward'>, batch: CompletionBatch, training = true): tf.Tensor3D {
  const { logits, values } = model.forward(batch.input, { training }); // [B, P+M−1, V]
  if (values) values.dispose();
  const [B, L, V] = logits.shape;
  return tf.slice(logits, [0, batch.promptLength - 1, 0], [B, L - batch.promptLength + 1, V]); // [B, M, V]
}

/** Reference completions for SFT: [..completion, EOS] with a mask of ones. */
export function referenceCompletions<P extends TaskProblem>(task: PromptTask<P>, problems: P[]) {
  const completions = problems.map((p) => task.encodeCompletion(p));
  return { prompts: problems.map((p) => task.encodePrompt(p)), completions, mask: completions.map((c) => c.map(() => 1)) };
}

/**
 * Held-out evaluation: greedy decoding on the task's fixed test set; `eval/accuracy` is the share of correct
 * answers (in [0, 1]), `eval/format` the share of well-formed ones.
 */
export async function evaluateOnTestSet<P extends TaskProblem>(model: TinyLM, task: PromptTask<P>, problems: P[]): Promise<Record<string, number>> {
  const { texts, truncated } = await greedyTexts(model, problems.map((p) => task.encodePrompt(p)), task.maxCompletionLength, task.tokenizer);
  const context = { answers: problems.map((p) => p.answer), truncated };
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { 'eval/accuracy': total(correctnessReward(texts, context)) / problems.length, 'eval/format': total(formatReward(texts, context)) / problems.length };
}

/**
 * Greedy (temperature 0) completions of `prompts`, decoded, in chunks of 128 rows: held-out evaluation. With `env`
 * the episodes are multi-turn, the environment answering along the way.
 */
export async function greedyTexts(
  model: TinyLM,
  prompts: number[][],
  maxCompletionLength: number,
  tokenizer: { eos: number; pad: number; decode(ids: number[]): string },
  env?: ToolEnvironment,
): Promise<{ texts: string[]; truncated: boolean[] }> {
  const texts: string[] = [];
  const truncated: boolean[] = [];
  const rng = createRng('eval'); // unused by greedy decoding, required by the signature
  for (let i = 0; i < prompts.length; i += 128) {
    const gen = await generate(model, prompts.slice(i, i + 128), { temperature: 0, max_completion_length: maxCompletionLength, eos_id: tokenizer.eos, pad_id: tokenizer.pad }, rng, env);
    texts.push(...gen.completions.map((c) => tokenizer.decode(c)));
    truncated.push(...gen.finished.map((f) => !f));
  }
  return { texts, truncated };
}

/** Reads a dict of scalar tensors back in one transfer and disposes them. */
export async function readScalars(scalars: Record<string, tf.Tensor>): Promise<Record<string, number>> {
  const names = Object.keys(scalars);
  if (names.length === 0) return {};
  const stacked = tf.tidy(() => tf.stack(names.map((n) => tf.reshape(scalars[n], []))));
  const values = await stacked.data();
  tf.dispose([stacked, ...Object.values(scalars)]);
  return Object.fromEntries(names.map((n, i) => [n, values[i]]));
}
