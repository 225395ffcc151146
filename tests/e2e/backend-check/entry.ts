/**
 * Bundled by tests/e2e/backends.spec.ts for the browser: the same forward pass and SFT step on one tfjs backend, with
 * everything returned as plain numbers so the test can compare backends.
 */
import * as tf from '@tensorflow/tfjs';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { selectBackend, type BackendName } from '@/lib/tf/backend';
import { sftLoss } from '@/lib/rl/sft';
import { completionBatch, completionLogits } from '@/lib/train/lm-batch';
import { createSftTrainer } from '@/lib/train/sft-trainer';

export interface BackendResult {
  backend: string;
  skipped?: string;
  logits?: number[];
  /** Next-token logits from the key/value cache: a ragged first chunk, one-token steps, a select, a multi-token chunk. */
  decoding?: number[];
  /** The same chunks through the fused WebAssembly kernel: probabilities, softmax(logits); null if it stood aside. */
  fused?: number[] | null;
  vocab?: number;
  losses?: number[];
  /** The SFT loss's gradient for every weight, in the model's order. */
  gradients?: number[];
}

async function check(name: BackendName): Promise<BackendResult> {
  const selection = await selectBackend({ requested: name, order: [name], allowSoftware: true, timeoutMs: 60_000 });
  if (selection.backend !== name) return { backend: name, skipped: selection.fallbacks.map((f) => f.reason).join('; ') };
  const task = createArithmeticTask({ digits: 1, scratchpad: true });
  const model = createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), 0);
  const problems = task.sample('train', 8, createRng('backend-check'));
  const batch = completionBatch(problems.map((p) => task.encodePrompt(p)), problems.map((p) => task.encodeCompletion(p)), problems.map((p) => task.encodeCompletion(p).map(() => 1)), task.tokenizer.pad);
  const logits = tf.tidy(() => model.forward(batch.input).logits);
  const result: BackendResult = { backend: name, logits: Array.from(await logits.data()) };
  logits.dispose();
  result.decoding = await decode(model);
  result.fused = await decodeFused(model);
  result.vocab = model.config.vocab_size;
  const { grads, value } = tf.variableGrads(() => sftLoss(completionLogits(model, batch, false), batch.targets, batch.mask).loss);
  result.gradients = [];
  for (const v of model.trainableVariables()) result.gradients.push(...(await grads[v.name].data()));
  tf.dispose([value, ...Object.values(grads)]);
  batch.dispose();
  // Two SFT steps through the trainer.
  const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 8, eval_samples: 10, seed: 0 });
  // The second loss is computed on weights the first step (backward, clipping, Adam) moved.
  result.losses = [(await trainer.trainStep()).loss, (await trainer.trainStep()).loss];
  trainer.dispose();
  model.dispose();
  return result;
}

/** Every path of TinyLM.beginDecoding's cache writes, as the samplers use them. */
async function decode(model: ReturnType<typeof createTinyLM>): Promise<number[]> {
  const session = model.beginDecoding();
  const out: number[] = [];
  const take = async (t: tf.Tensor) => {
    out.push(...(await t.data()));
    t.dispose();
  };
  await take(session.feed([[1, 2, 3], [4, 5], [6, 7, 8]])); // from slot 0, padded
  await take(session.feed([[9], [10], [11]])); // one token per row
  session.select([2, 0]);
  await take(session.feed([[3, 4, 5], [6]])); // several tokens at once, ragged
  session.dispose();
  return out;
}

/** decode()'s chunks through the fused kernel, which reads this backend's weights back once. */
async function decodeFused(model: ReturnType<typeof createTinyLM>): Promise<number[] | null> {
  const session = await model.beginFusedDecoding();
  if (!session) return null;
  const out: number[] = [];
  out.push(...session.feed([[1, 2, 3], [4, 5], [6, 7, 8]], 1));
  out.push(...session.feed([[9], [10], [11]], 1));
  session.select([2, 0]);
  out.push(...session.feed([[3, 4, 5], [6]], 1));
  session.dispose();
  return out;
}

(globalThis as { checkBackend?: typeof check }).checkBackend = check;
