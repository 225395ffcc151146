/**
 * SFT on the arithmetic task: cross-entropy on completion tokens only (TRL's completion_only_loss), Adam,
 * gradient clipping, optional LoRA. Implements StepTrainer, so it runs under TrainingRun anywhere.
 */
import * as tf from '@tensorflow/tfjs';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { sftLoss } from '@/lib/rl/sft';
import type { ArithmeticTask, Problem } from '@/lib/tasks/arithmetic';
import { resolve, type ConfigOf } from './config';
import { completionBatch, completionLogits, evaluateOnTestSet, readScalars, referenceCompletions } from './lm-batch';
import { optimizerStep, since } from './optim';
import type { Metrics, StepTrainer } from './run';
import { sftSchema } from './sft-config';

export type SftConfig = ConfigOf<typeof sftSchema>;

export interface SftTrainer extends StepTrainer {
  readonly config: SftConfig;
  /** The model being trained (with adapters when use_peft). */
  readonly model: TinyLM;
}

export function createSftTrainer(base: TinyLM, task: ArithmeticTask, overrides: Partial<SftConfig> = {}): SftTrainer {
  const config = resolve(sftSchema, overrides);
  const model = config.use_peft
    ? base.withAdapters({ lora: { r: config.r, lora_alpha: config.lora_alpha, lora_dropout: config.lora_dropout, use_rslora: config.use_rslora, target_modules: ['qkv', 'out', 'fc1', 'fc2'] } }, config.seed)
    : base;
  const optimizer = tf.train.adam(config.learning_rate);
  const variables = model.trainableVariables();
  const rng: Rng = createRng(config.seed).fork('sft-data');
  const testSet: Problem[] = task.testSet(config.eval_samples);

  return {
    config,
    model,
    async trainStep(): Promise<Metrics> {
      const started = performance.now();
      const { prompts, completions, mask } = referenceCompletions(task, task.sample('train', config.per_device_train_batch_size, rng));
      const batch = completionBatch(prompts, completions, mask, task.tokenizer.pad);
      let entropy!: tf.Scalar;
      let accuracy!: tf.Scalar;
      let loss!: tf.Scalar;
      const gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
        const out = sftLoss(completionLogits(model, batch), batch.targets, batch.mask);
        [entropy, accuracy, loss] = [tf.keep(out.entropy), tf.keep(out.meanTokenAccuracy), tf.keep(tf.clone(out.loss))];
        return out.loss;
      });
      const numTokens = mask.reduce((s, m) => s + m.length, 0);
      batch.dispose();
      const metrics = await readScalars({ loss, entropy, mean_token_accuracy: accuracy, grad_norm: gradNorm });
      return { ...metrics, num_tokens: numTokens, 'timing/step_ms': since(started) };
    },
    evaluate: () => evaluateOnTestSet(model, task, testSet),
    dispose() {
      optimizer.dispose();
      if (model !== base) model.dispose();
    },
  };
}
