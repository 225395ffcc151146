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

(globalThis as { checkBackend?: typeof check }).checkBackend = check;
