/**
 * GRPO on the arithmetic task, as TRL's GRPOTrainer: sample G completions per prompt, score them with
 * weighted reward functions, turn rewards into group-relative advantages, and take num_iterations clipped
 * policy-gradient steps (plus a k3 KL penalty to a frozen reference when beta > 0).
 */
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { atLeastReward, correctnessReward, formatReward, hackableDigitReward, lengthPenalty, softOverlongPunishment } from '@/lib/tasks/rewards';
import type { PromptTask } from '@/lib/tasks/task';
import type { ConfigOf } from './config';
import { grpoSchema } from './grpo-config';
import { checkFitsContext, createGrpoStepper, type Generated } from './grpo-update';
import { evaluateOnTestSet } from './lm-batch';
import { taskWithDataset } from './dataset-task';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { completionMetrics, mean, type NamedReward, resolveOnPolicyConfig, rewardMeans, sampleGroups, scoreRewards, updateConfigOf, weightedReward } from './on-policy';
import type { StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';
import type { StepTokenTerms } from './token-terms';
import type { TrainerExtras } from './trainer';

export type GrpoConfig = ConfigOf<typeof grpoSchema>;

/** One generation batch, kept for the lab's group inspector. */
export interface GrpoSamples {
  step: number;
  /** Reward function names, in the order of `rewardsPerFunc` columns. */
  rewardNames: string[];
  /** Weights applied to each reward function. */
  rewardWeights: number[];
  groups: {
    prompt: string;
    answer: string;
    completions: { text: string; tokens: string[]; mask: number[]; rewards: number[]; total: number; advantage: number }[];
  }[];
  /** The latest step's token view: a few completions of this batch (rows in groups order), token by token. */
  tokenTerms: StepTokenTerms | null;
}

export interface GrpoTrainer extends LmTrainer<typeof grpoSchema, GrpoSamples> {
  readonly config: GrpoConfig;
}

/** The GRPO config from overrides (lib/train/on-policy.ts: epsilon_high follows epsilon, whole groups per batch). */
export const resolveGrpoConfig = (overrides: Record<string, unknown> = {}): GrpoConfig => resolveOnPolicyConfig(grpoSchema, overrides);

/**
 * GRPO of `model` on `task`. `customReward` is the reader's own function (lib/tasks/custom-reward.ts), scored after the
 * built-in ones and logged as rewards/custom/mean; if it fails, the step fails with its message.
 */
export function createGrpoTrainer(model: TinyLM, task: PromptTask, overrides: Partial<GrpoConfig> = {}, customReward?: TrainerExtras['reward']): GrpoTrainer {
  const config = resolveGrpoConfig(overrides);
  checkFitsContext(task.promptLength, config.max_completion_length, model);
  const rewardFns: NamedReward[] = [
    { name: 'correctness', fn: { exact: correctnessReward, at_least: atLeastReward, digits: hackableDigitReward }[config.correctness_reward], weight: config.reward_weight_correctness },
    { name: 'format', fn: formatReward, weight: config.reward_weight_format },
    { name: 'length', fn: lengthPenalty, weight: config.reward_weight_length },
    { name: 'overlong', fn: softOverlongPunishment(config.max_completion_length, config.soft_punish_cache), weight: config.reward_weight_overlong },
    ...(customReward ? [{ name: 'custom', fn: customReward.fn, weight: customReward.weight }] : []),
  ];
  const root = createRng(config.seed);
  const dataRng = root.fork('grpo-prompts');
  const sampleRng = root.fork('grpo-sampling');
  const testSet = task.testSet(config.eval_samples);
  const G = config.num_generations;
  const tok = task.tokenizer;
  const generationBatch = config.per_device_train_batch_size * config.steps_per_generation;
  let generations = 0;
  let lastSamples: GrpoSamples | null = null;
  let numTokens = 0;

  /** G completions for each of `count` problems, scored: one row per completion, in groups of G. */
  async function sampleScoredGroups(count: number) {
    const { problems, prompts, generation: gen, context } = await sampleGroups(model, task, count, config, { problems: dataRng, sampling: sampleRng });
    const texts = gen.completions.map((c) => tok.decode(c));
    const scores = await scoreRewards(rewardFns, texts, context);
    // What is right, whatever the run rewards (a flawed verifier may pay for wrong answers): for the inspector.
    const correct = correctnessReward(texts, { answers: context.answers });
    const rows = problems.map((p, i) => ({
      problem: p,
      prompt: prompts[i],
      completion: gen.completions[i],
      mask: gen.completionMask[i],
      text: texts[i],
      length: gen.lengths[i],
      truncated: !gen.finished[i],
      rewards: scores[i],
      correct: correct[i] === 1,
    }));
    return Array.from({ length: count }, (_, g) => rows.slice(g * G, (g + 1) * G));
  }

  /** A generation batch; with DAPO's dynamic sampling, only groups whose scores differ, resampled up to a cap. */
  async function generateBatch(timer: StepTimer): Promise<Generated<GrpoSamples>> {
    const wanted = generationBatch / G;
    const total = (row: { rewards: number[] }) => weightedReward(row.rewards, rewardFns);
    const informative = (group: Awaited<ReturnType<typeof sampleScoredGroups>>[number]) => group.some((r) => Math.abs(total(r) - total(group[0])) > 1e-9);
    const groups: Awaited<ReturnType<typeof sampleScoredGroups>> = [];
    const dropped: typeof groups = [];
    let rounds = 0;
    await timer.timeAsync('generation', async () => {
      do {
        rounds += 1;
        for (const group of await sampleScoredGroups(wanted - groups.length)) (!config.dynamic_sampling || informative(group) ? groups : dropped).push(group);
      } while (config.dynamic_sampling && groups.length < wanted && rounds < config.dynamic_sampling_max_rounds);
    });
    const keptFraction = groups.length / (groups.length + dropped.length);
    // Past the cap, fill with dropped groups: their advantages are all 0, so they add no gradient, only rows.
    while (groups.length < wanted) groups.push(dropped.shift()!);
    const rows = groups.flat();
    generations += 1;
    numTokens += rows.reduce((s, r) => s + r.prompt.length + r.length, 0);
    const correct = rows.filter((r) => r.correct);
    const incorrect = rows.filter((r) => !r.correct);
    const metrics: Record<string, number> = {
      ...rewardMeans(rewardFns, rows.map((r) => r.rewards)),
      num_tokens: numTokens,
      ...completionMetrics(rows.map((r) => r.length), rows.map((r) => r.truncated)),
      // Dr. GRPO's length-bias experiment reads these two apart.
      ...(correct.length ? { 'completions/mean_length_correct': mean(correct.map((r) => r.length)) } : {}),
      ...(incorrect.length ? { 'completions/mean_length_incorrect': mean(incorrect.map((r) => r.length)) } : {}),
    };
    if (config.dynamic_sampling) Object.assign(metrics, { 'dynamic_sampling/rounds': rounds, 'dynamic_sampling/kept_fraction': keptFraction });
    const samples: GrpoSamples = {
      step: generations,
      rewardNames: rewardFns.map((r) => r.name),
      rewardWeights: rewardFns.map((r) => r.weight),
      groups: groups.map((group) => ({
        prompt: group[0].problem.prompt,
        answer: group[0].problem.answer,
        completions: group.map((r) => ({ text: r.text, tokens: r.completion.map((id) => tok.decode([id], { raw: true })), mask: r.mask, rewards: r.rewards, total: total(r), advantage: 0 })),
      })),
      tokenTerms: null,
    };
    return {
      batch: {
        prompts: rows.map((r) => r.prompt),
        completions: rows.map((r) => r.completion),
        // DAPO's overlong filtering (TRL: mask_truncated_completions): a cut-off completion teaches nothing.
        lossMask: rows.map((r) => (config.mask_truncated_completions && r.truncated ? r.mask.map(() => 0) : r.mask)),
        rewardsPerFunc: rows.map((r) => r.rewards),
        rewardWeights: rewardFns.map((r) => r.weight),
        pad: tok.pad,
      },
      metrics,
      samples,
    };
  }

  const stepper = createGrpoStepper(model, updateConfigOf(config), generateBatch, root.fork('grpo-shuffle'));

  // The inspector shows each generation batch with the advantages the updates use, and each step's token terms.
  const trainStep = (keep: Keep): Promise<Metrics> =>
    stepper.trainStep(
      keep,
      ({ samples, advantages }) => {
        let i = 0;
        for (const group of samples.groups) for (const c of group.completions) c.advantage = advantages[i++];
        lastSamples = samples;
      },
      (tokenTerms) => {
        if (lastSamples) lastSamples = { ...lastSamples, tokenTerms };
      },
    );

  return {
    config,
    model,
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(() => evaluateOnTestSet(model, task, testSet)),
    inspect: async () => lastSamples,
    dispose: () => stepper.dispose(),
  };
}

/** For the registry: GRPO of the lab model from a checkpoint (the shipped SFT one by default). */
export const grpoFactory = lmTrainerFactory((model, overrides, extras) => {
  const config = resolveGrpoConfig(overrides);
  return createGrpoTrainer(model, taskWithDataset('grpo', extras.dataset, model, config.max_completion_length), config, extras.reward);
});
