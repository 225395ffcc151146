/**
 * SFT on the arithmetic task: cross-entropy on completion tokens only (TRL's completion_only_loss), Adam,
 * gradient clipping, optional LoRA. Implements StepTrainer, so it runs under TrainingRun anywhere. Its step is the
 * kit's sftStep (on-policy.ts), which the vision lab's SFT phase takes too.
 */
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import type { PromptTask, TaskProblem } from '@/lib/tasks/task';
import { ConfigError, resolve, type ConfigOf } from './config';
import { arithmeticTaskFor } from './lab-setup';
import { taskWithDataset } from './dataset-task';
import { exportAdapter, mergeCheck, snapshotLinearWeights, updateSpectrum, type UpdateSpectrum } from './lora-analysis';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { completionBatch, evaluateOnTestSet, readScalars, referenceCompletions } from './lm-batch';
import { sftStep } from './on-policy';
import { adam, StepTimer } from './optim';
import { inTensorScope } from './scope';
import type { Metrics } from './run';
import { measuresOldTask, sftSchema } from './sft-config';

export type SftConfig = ConfigOf<typeof sftSchema>;

export interface SftTrainer extends LmTrainer<typeof sftSchema, UpdateSpectrum> {
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

/**
 * The arithmetic task's reference answers, every completion token in the loss; greedy held-out accuracy, and with
 * `oldTask`, accuracy on the task the model knew before (eval/old_task_accuracy: forgetting).
 */
export function arithmeticSftSource(task: PromptTask, evalSamples: number, oldTask: PromptTask | null = null, replayFraction = 0): SftSource {
  const testSet: TaskProblem[] = task.testSet(evalSamples);
  const oldTestSet = oldTask?.testSet(evalSamples) ?? [];
  return {
    batch(n, rng) {
      // With replay, a fixed share of each batch comes from the old task (same prompt length, same tokenizer).
      const replayed = oldTask ? Math.round(n * replayFraction) : 0;
      const problems = [...task.sample('train', n - replayed, rng), ...(oldTask && replayed > 0 ? oldTask.sample('train', replayed, rng) : [])];
      return referenceCompletions(task, problems);
    },
    async evaluate(model) {
      const metrics = await evaluateOnTestSet(model, task, testSet);
      if (oldTask) metrics['eval/old_task_accuracy'] = (await evaluateOnTestSet(model, oldTask, oldTestSet))['eval/accuracy'];
      return metrics;
    },
    pad: task.tokenizer.pad,
  };
}

export function createSftTrainer(base: TinyLM, task: PromptTask, overrides: Partial<SftConfig> = {}): SftTrainer {
  const config = resolve(sftSchema, overrides);
  return sftTrainerOn(base, arithmeticSftSource(task, config.eval_samples), config);
}

/** SFT of `base` (or of LoRA adapters on it) on a source's demonstrations. */
export function sftTrainerOn(base: TinyLM, source: SftSource, config: SftConfig): SftTrainer {
  const targets = { 'all-linear': ['qkv', 'out', 'fc1', 'fc2'], attention: ['qkv', 'out'], mlp: ['fc1', 'fc2'] } as const;
  const model = config.use_peft
    ? base.withAdapters({ lora: { r: config.r, lora_alpha: config.lora_alpha, lora_dropout: config.lora_dropout, use_rslora: config.use_rslora, target_modules: [...targets[config.target_modules]] } }, config.seed)
    : base;
  const optimizer = adam(config.learning_rate);
  const rng: Rng = createRng(config.seed).fork('sft-data');
  let numTokens = 0;
  let step = 0;
  let initial: Map<string, Float32Array> | null = null; // the weights before the first step, for full FT's ΔW
  // What the run costs, for the LoRA lab: trainable parameters and Adam's two float32 moments per parameter.
  const trainable = model.trainableParamCount();
  const sizeMetrics = { trainable_params: trainable, trainable_percent: (100 * trainable) / model.paramCount(), optimizer_state_bytes: 2 * 4 * trainable };

  return {
    config,
    model,
    trainStep: () =>
      inTensorScope(async (keep) => {
        const timer = new StepTimer();
        initial ??= await snapshotLinearWeights(model);
        step += 1;
        const { prompts, completions, mask } = source.batch(config.per_device_train_batch_size, rng);
        const { loss, entropy, meanTokenAccuracy, gradNorm } = sftStep(model, optimizer, { prompts, completions, mask }, { pad: source.pad, maxGradNorm: config.max_grad_norm, keep, timer });
        // TRL's num_tokens: tokens seen so far, prompt and completion (no padding).
        numTokens += prompts.reduce((s, p) => s + p.length, 0) + completions.reduce((s, c) => s + c.length, 0);
        const metrics = await readScalars({ loss, entropy, mean_token_accuracy: meanTokenAccuracy, grad_norm: gradNorm });
        return { ...metrics, num_tokens: numTokens, ...timer.metrics() };
      }),
    evaluate: () => inTensorScope(async () => ({ ...(await source.evaluate(model)), ...sizeMetrics })),
    inspect: async () => (initial ? updateSpectrum(model, initial, step) : null),
    actions: {
      merge_check: () =>
        inTensorScope(async () => {
          const { prompts, completions, mask } = source.batch(32, createRng('merge-check'));
          return mergeCheck(model, completionBatch(prompts, completions, mask, source.pad).input);
        }),
      export_adapter: () => exportAdapter(model),
    },
    dispose() {
      optimizer.dispose();
      if (model !== base) model.dispose();
    },
  };
}

/** For the registry: SFT of the lab model (from the untrained model, or from the addition model for the LoRA lab). */
export const sftFactory = lmTrainerFactory((model, overrides, extras) => {
  const config = resolve(sftSchema, overrides);
  if (extras.dataset) {
    // A reader's file replaces the task (and the `dataset` field). From the addition model, addition is still
    // measured (forgetting), but not replayed: its prompts would not share a batch with the file's.
    if (config.replay_fraction > 0) throw new ConfigError(['replay_fraction mixes built-in addition problems into each batch and cannot be used with a dataset file: set it to 0']);
    const task = taskWithDataset('sft', extras.dataset, model);
    return sftTrainerOn(model, arithmeticSftSource(task, config.eval_samples, config.init_from === 'addition_sft' ? arithmeticTaskFor('addition') : null), config);
  }
  const oldTask = measuresOldTask(config) ? arithmeticTaskFor('addition') : null;
  return sftTrainerOn(model, arithmeticSftSource(arithmeticTaskFor(config.dataset), config.eval_samples, oldTask, config.replay_fraction), config);
});
