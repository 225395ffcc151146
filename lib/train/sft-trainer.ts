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
import { createLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { completionBatch, completionLogits, evaluateOnTestSet, readScalars, referenceCompletions } from './lm-batch';
import { optimizerStep, StepTimer } from './optim';
import { inTensorScope } from './scope';
import type { Metrics } from './run';
import { sftSchema } from './sft-config';

export type SftConfig = ConfigOf<typeof sftSchema>;

export interface SftTrainer extends LmTrainer<typeof sftSchema, null> {
  readonly config: SftConfig;
}

/** Where SFT's demonstrations come from, and how the result is judged: any task can provide one. */
export interface SftSource {
  /** n demonstrations: prompts of one length, completions (EOS included), and which tokens carry the loss. */
  batch(n: number, rng: Rng): { prompts: number[][]; completions: number[][]; mask: number[][] };
  /** Held-out evaluation of a model (e.g. { 'eval/accuracy': 0.4 }). */
  evaluate(model: TinyLM): Promise<Metrics>;
  pad: number;
}

/** The arithmetic task's reference answers, every completion token in the loss; greedy held-out accuracy. */
export function arithmeticSftSource(task: ArithmeticTask, evalSamples: number): SftSource {
  const testSet: Problem[] = task.testSet(evalSamples);
  return {
    batch: (n, rng) => referenceCompletions(task, task.sample('train', n, rng)),
    evaluate: (model) => evaluateOnTestSet(model, task, testSet),
    pad: task.tokenizer.pad,
  };
}

export function createSftTrainer(base: TinyLM, task: ArithmeticTask, overrides: Partial<SftConfig> = {}): SftTrainer {
  const config = resolve(sftSchema, overrides);
  return sftTrainerOn(base, arithmeticSftSource(task, config.eval_samples), config);
}

/** SFT of `base` (or of LoRA adapters on it) on a source's demonstrations. */
export function sftTrainerOn(base: TinyLM, source: SftSource, config: SftConfig): SftTrainer {
  const model = config.use_peft
    ? base.withAdapters({ lora: { r: config.r, lora_alpha: config.lora_alpha, lora_dropout: config.lora_dropout, use_rslora: config.use_rslora, target_modules: ['qkv', 'out', 'fc1', 'fc2'] } }, config.seed)
    : base;
  const optimizer = tf.train.adam(config.learning_rate);
  const variables = model.trainableVariables();
  const rng: Rng = createRng(config.seed).fork('sft-data');
  let numTokens = 0;

  return {
    config,
    model,
    trainStep: () =>
      inTensorScope(async (keep) => {
        const timer = new StepTimer();
        const { prompts, completions, mask } = source.batch(config.per_device_train_batch_size, rng);
        const batch = completionBatch(prompts, completions, mask, source.pad);
        let entropy!: tf.Scalar;
        let accuracy!: tf.Scalar;
        let loss!: tf.Scalar;
        const gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
          const out = sftLoss(completionLogits(model, batch), batch.targets, batch.mask);
          [entropy, accuracy, loss] = [keep(out.entropy), keep(out.meanTokenAccuracy), keep(tf.clone(out.loss))];
          return out.loss;
        }, timer);
        // TRL's num_tokens: tokens seen so far, prompt and completion (no padding).
        numTokens += prompts.reduce((s, p) => s + p.length, 0) + completions.reduce((s, c) => s + c.length, 0);
        batch.dispose();
        const metrics = await readScalars({ loss, entropy, mean_token_accuracy: accuracy, grad_norm: gradNorm });
        return { ...metrics, num_tokens: numTokens, ...timer.metrics() };
      }),
    evaluate: () => inTensorScope(() => source.evaluate(model)),
    inspect: async () => null,
    dispose() {
      optimizer.dispose();
      if (model !== base) model.dispose();
    },
  };
}

/** For the registry: SFT of the lab model from a checkpoint. */
export const sftFactory = lmTrainerFactory((model, overrides) => createSftTrainer(model, createLabTask(), resolve(sftSchema, overrides)));
