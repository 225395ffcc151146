/**
 * DPO on preference pairs drawn from the starting model (TRL's DPOTrainer on on-policy pairs):
 * chosen = a correct completion, rejected = an incorrect one for the same prompt. The reference is the
 * frozen starting model; its log-probs are computed once up front (TRL's precompute_ref_log_probs). A reader's
 * preference file (lib/tasks/dataset.ts) can replace the sampled pairs.
 */
import * as tf from '@tensorflow/tfjs';
import { generate } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { dpoLoss } from '@/lib/rl/dpo';
import { completionLogprobs, sequenceLogprobs } from '@/lib/rl/logprobs';
import { checkFits, createDatasetTask, DatasetError, referenceAnswer, type Dataset, type DatasetProblem } from '@/lib/tasks/dataset';
import { buildPreferencePairs } from '@/lib/tasks/preferences';
import { correctnessReward } from '@/lib/tasks/rewards';
import type { PromptTask } from '@/lib/tasks/task';
import { resolve, type ConfigOf } from './config';
import { dpoSchema } from './dpo-config';
import { completionBatch, completionLogits, evaluateOnTestSet, readScalars } from './lm-batch';
import { datasetLimits } from './dataset-task';
import { createLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { adam, optimizerStep, StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';

export type DpoConfig = ConfigOf<typeof dpoSchema>;

export interface PreferenceExample {
  prompt: string;
  answer: string;
  promptIds: number[];
  /** Completion ids with EOS. */
  chosen: number[];
  rejected: number[];
  /** Σ log π_ref over each completion, computed once. */
  refChosen: number;
  refRejected: number;
}

/** A pair of the last batch with its implicit rewards β·(log π − log π_ref), for the lab's pair inspector. */
export interface DpoPairView {
  pair: PreferenceExample;
  chosenReward: number;
  rejectedReward: number;
}

export interface DpoTrainer extends LmTrainer<typeof dpoSchema, DpoPairView[]> {
  readonly config: DpoConfig;
  readonly pairs: readonly PreferenceExample[];
}

/** Sequence log-prob sums of completions under `model` (no gradient), for a batch of pairs' one side. */
function sequenceLogps(model: TinyLM, prompts: number[][], completions: number[][], pad: number): tf.Tensor1D {
  const batch = completionBatch(prompts, completions, completions.map((c) => c.map(() => 1)), pad);
  const out = tf.tidy(() => sequenceLogprobs(completionLogprobs(completionLogits(model, batch, false), batch.targets), batch.mask));
  batch.dispose();
  return out;
}

/** Sample the model on training prompts and keep (correct, incorrect) pairs for the same prompt. */
export async function samplePreferencePairs(model: TinyLM, task: PromptTask, config: DpoConfig): Promise<PreferenceExample[]> {
  const rng = createRng(config.seed).fork('dpo-pairs');
  const tok = task.tokenizer;
  const problems = task.sample('train', config.num_prompts, rng);
  const examples: PreferenceExample[] = [];
  const chunk = 64;
  for (let start = 0; start < problems.length; start += chunk) {
    const group = problems.slice(start, start + chunk);
    const rows = group.flatMap((p) => Array(config.samples_per_prompt).fill(p));
    const gen = await generate(model, rows.map((p) => task.encodePrompt(p)), { temperature: config.sampling_temperature, max_completion_length: task.maxCompletionLength, eos_id: tok.eos, pad_id: tok.pad }, rng);
    const texts = gen.completions.map((c) => tok.decode(c));
    const rewards = correctnessReward(texts, { answers: rows.map((p) => p.answer) });
    const completions = gen.completions.map((c, i) => c.slice(0, gen.lengths[i]));
    const pairs = buildPreferencePairs(rows.map((p, i) => ({ group: start + Math.floor(i / config.samples_per_prompt), completion: i, reward: gen.finished[i] ? rewards[i] : -1 })), { maxPairsPerGroup: 1 });
    for (const pair of pairs) {
      const p = problems[pair.group as number];
      examples.push({ prompt: p.prompt, answer: p.answer, promptIds: task.encodePrompt(p), chosen: completions[pair.chosen], rejected: completions[pair.rejected], refChosen: 0, refRejected: 0 });
    }
  }
  return withReferenceLogps(model, examples, tok.pad);
}

/** The pairs of a reader's preference file (its training lines), as the trainer's examples. */
export function pairsFromDataset(model: TinyLM, dataset: Dataset, task: PromptTask<DatasetProblem>): Promise<PreferenceExample[]> {
  if (dataset.kind !== 'preference') throw new DatasetError('dpo trains on preference lines {"prompt", "chosen", "rejected"}, not prompt/answer lines');
  const tok = task.tokenizer;
  const encode = (text: string) => [...tok.encode(text), tok.eos];
  const examples = dataset.records
    .filter((r) => r.split === 'train')
    .map((r) => ({
      prompt: r.prompt,
      answer: referenceAnswer(r.chosen),
      promptIds: task.encodePrompt({ line: r.line, prompt: r.prompt, answer: referenceAnswer(r.chosen), completion: r.chosen }),
      chosen: encode(r.chosen),
      rejected: encode(r.rejected),
      refChosen: 0,
      refRejected: 0,
    }));
  return withReferenceLogps(model, examples, tok.pad);
}

/** Fills in each pair's reference log-probs, once, in batches: the reference never changes. */
async function withReferenceLogps(model: TinyLM, examples: PreferenceExample[], pad: number): Promise<PreferenceExample[]> {
  for (let start = 0; start < examples.length; start += 128) {
    const slice = examples.slice(start, start + 128);
    const prompts = slice.map((e) => e.promptIds);
    const [chosen, rejected] = [sequenceLogps(model, prompts, slice.map((e) => e.chosen), pad), sequenceLogps(model, prompts, slice.map((e) => e.rejected), pad)];
    const [c, r] = await Promise.all([chosen.data(), rejected.data()]);
    tf.dispose([chosen, rejected]);
    slice.forEach((e, i) => ((e.refChosen = c[i]), (e.refRejected = r[i])));
  }
  return examples;
}

/**
 * DPO of `model` on `task`: on pairs sampled from the model itself, or on the training lines of a reader's preference
 * file (held-out accuracy then compares greedy answers with the test lines' chosen answers).
 */
export async function createDpoTrainer(model: TinyLM, task: PromptTask, overrides: Partial<DpoConfig> = {}, dataset?: Dataset): Promise<DpoTrainer> {
  const config = resolve(dpoSchema, overrides);
  const pairs = await inTensorScope(() => (dataset ? pairsFromDataset(model, dataset, task as PromptTask<DatasetProblem>) : samplePreferencePairs(model, task, config)));
  if (pairs.length < config.per_device_train_batch_size) {
    if (dataset) throw new DatasetError(`the file has ${pairs.length} training pairs, fewer than per_device_train_batch_size (${config.per_device_train_batch_size}): add pairs or lower the batch size`);
    throw new Error(`only ${pairs.length} preference pairs could be drawn (the model is right or wrong on every sample of most prompts); raise num_prompts or samples_per_prompt`);
  }
  const optimizer = adam(config.learning_rate);
  const variables = model.trainableVariables();
  const rng = createRng(config.seed).fork('dpo-batches');
  const testSet = task.testSet(config.eval_samples);
  const tok = task.tokenizer;
  let order: number[] = [];
  let lastBatch: DpoPairView[] = [];
  let numTokens = 0;

  /** Epochs over the pairs in a seeded shuffled order. */
  function nextBatch(): PreferenceExample[] {
    const out: PreferenceExample[] = [];
    while (out.length < config.per_device_train_batch_size) {
      if (order.length === 0) order = rng.shuffle(pairs.map((_, i) => i));
      out.push(pairs[order.pop()!]);
    }
    return out;
  }

  async function trainStep(keep: Keep): Promise<Metrics> {
    const timer = new StepTimer();
    const examples = nextBatch();
    const B = examples.length;
    // TRL's concatenated forward: chosen and rejected in one batch of 2B rows.
    const prompts = [...examples.map((e) => e.promptIds), ...examples.map((e) => e.promptIds)];
    const completions = [...examples.map((e) => e.chosen), ...examples.map((e) => e.rejected)];
    const batch = completionBatch(prompts, completions, completions.map((c) => c.map(() => 1)), tok.pad);
    const lengths = completions.map((c) => c.length);
    const refChosen = tf.tensor1d(examples.map((e) => e.refChosen));
    const refRejected = tf.tensor1d(examples.map((e) => e.refRejected));
    const chosenLengths = tf.tensor1d(lengths.slice(0, B));
    const rejectedLengths = tf.tensor1d(lengths.slice(B));
    const logged: Record<string, tf.Tensor> = {};
    const gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
      const seq = sequenceLogprobs(completionLogprobs(completionLogits(model, batch), batch.targets), batch.mask); // [2B]
      const [chosenLogps, rejectedLogps] = tf.split(seq, 2) as [tf.Tensor1D, tf.Tensor1D];
      const out = dpoLoss({
        chosenLogps, rejectedLogps, refChosenLogps: refChosen, refRejectedLogps: refRejected,
        beta: config.beta, lossType: config.loss_type, labelSmoothing: config.label_smoothing, chosenLengths, rejectedLengths,
      });
      Object.assign(logged, {
        loss: keep(tf.clone(out.loss)),
        ...Object.fromEntries(Object.entries(out.metrics).map(([k, v]) => [k, keep(v)])),
        'logps/chosen': keep(tf.mean(chosenLogps)),
        'logps/rejected': keep(tf.mean(rejectedLogps)),
        chosenRewards: keep(out.chosenRewards),
        rejectedRewards: keep(out.rejectedRewards),
      });
      return out.loss;
    }, timer);
    const { chosenRewards, rejectedRewards, ...scalars } = logged;
    const [c, r, metrics] = await Promise.all([chosenRewards.data(), rejectedRewards.data(), readScalars({ ...scalars, grad_norm: gradNorm })]);
    lastBatch = examples.map((pair, i) => ({ pair, chosenReward: c[i], rejectedReward: r[i] }));
    numTokens += prompts.reduce((s, p) => s + p.length, 0) + lengths.reduce((a, b) => a + b, 0);
    return { ...metrics, num_tokens: numTokens, ...timer.metrics() };
  }

  return {
    config,
    model,
    pairs,
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(() => evaluateOnTestSet(model, task, testSet)),
    inspect: async () => (lastBatch.length > 0 ? lastBatch : null),
    dispose: () => optimizer.dispose(),
  };
}

/** For the registry: DPO of the lab model on pairs sampled from it (the shipped SFT checkpoint by default). */
export const dpoFactory = lmTrainerFactory((model, overrides, extras) => {
  const config = resolve(dpoSchema, overrides);
  if (!extras.dataset) return createDpoTrainer(model, createLabTask(), config);
  if (extras.dataset.kind !== 'preference') throw new DatasetError('dpo trains on preference lines {"prompt", "chosen", "rejected"}, not prompt/answer lines');
  checkFits(extras.dataset, { ...datasetLimits(), contextLength: model.config.context_length });
  return createDpoTrainer(model, createDatasetTask(extras.dataset, createLabTask().tokenizer, model.config.context_length), config, extras.dataset);
});
