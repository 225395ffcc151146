/**
 * The agent lab's trainer: GRPO on multi-turn episodes. Each completion is an episode in which the policy may call
 * the calculator ("[347*6]"), the environment appends its answer ("=2082"), and the policy then answers
 * ("#### 2082"); on the two-step task it plans two calls ("[347*6]=2082 [2082+58]=2140 #### 2140"), and with
 * tool_failure_rate the calculator fails calls at random ("=?"), so that calling again pays. The environment's tokens
 * are context, not actions: the loss mask leaves them out, as TRL's tool mask does, unless train_on_tool_results
 * turns the bug on. SFT on demonstrations (sft-trainer.ts with agentSftSource) makes the checkpoints runs start from.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { generate, type Generation } from '@/lib/models/generate';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { AGENT_REWARDS, agentEnvironment, episodeStats, randomCallFailures, type AgentProblem, type AgentTask } from '@/lib/tasks/agent';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import type { AsyncRewardFunction } from '@/lib/tasks/custom-reward';
import { formatReward, type RewardFunction } from '@/lib/tasks/rewards';
import { agentSchema } from './agent-config';
import { ConfigError, type ConfigOf } from './config';
import { checkFitsContext, createGrpoStepper, type Generated, resolveGrpoLike } from './grpo-update';
import { agentMaxCompletion, agentModelConfig, createAgentLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { greedyTexts } from './lm-batch';
import type { StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';
import type { SftSource } from './sft-trainer';
import type { TrainerExtras } from './trainer';

export type AgentConfig = ConfigOf<typeof agentSchema>;

export type TokenRole = 'policy' | 'observation';

/** One episode of a training step, for the lab's trajectory viewer. */
export interface AgentEpisode {
  prompt: string;
  answer: string;
  easy: boolean;
  /** Tokens after the prompt, up to the end of the episode (padding dropped), and who wrote each. */
  tokens: string[];
  roles: TokenRole[];
  /** Each reward function's score, in AgentSamples.rewardNames order, and their weighted sum. */
  rewards: number[];
  total: number;
  advantage: number;
  calls: number;
  /** Calls that got the error reply "=?", and whether the policy called again after the first of them. */
  failures: number;
  retried: boolean;
}

export interface AgentSamples {
  step: number;
  rewardNames: string[];
  rewardWeights: number[];
  /** True when the loss also trained on the observations (the bug): the viewer says so. */
  trainedOnObservations: boolean;
  numGenerations: number;
  episodes: AgentEpisode[];
}

export interface AgentTrainer extends LmTrainer<typeof agentSchema, AgentSamples> {
  readonly config: AgentConfig;
}

/** The agent's config from overrides, with the GRPO rules (lib/train/grpo-update.ts) and the task's model length. */
export function resolveAgentConfig(overrides: Record<string, unknown> = {}): AgentConfig {
  const config = resolveGrpoLike(agentSchema, overrides);
  const limit = agentMaxCompletion(config.task);
  if (config.max_completion_length > limit) throw new ConfigError([`max_completion_length must be at most ${limit} for the ${config.task} task (its model's context), got ${config.max_completion_length}`]);
  return config;
}

/** Evaluation draws the same random failures at every step and in every run: its salt is fixed. */
const EVAL_FAILURE_SALT = 'eval';

/**
 * The calculator of held-out evaluation under `config` (undefined without tools): the run's call cap and, with
 * tool_failure_rate, failures drawn with a fixed salt, so evaluations are comparable across steps and runs.
 */
export function agentEvalEnvironment(task: AgentTask, config: AgentConfig): ToolEnvironment | undefined {
  return config.use_tools ? agentEnvironment(task, config.max_tool_calling_iterations, randomCallFailures(config.tool_failure_rate, EVAL_FAILURE_SALT)) : undefined;
}

const decodeRow = (task: AgentTask, gen: Generation, i: number) => task.tokenizer.decode(gen.completions[i]);

/**
 * Greedy episodes on held-out problems: accuracy, and how the agent uses the tool (TRL's tools/* ideas, per episode):
 * eval/calls_per_episode is the mean number of calls answered (failed ones included). Where some episode had a failed
 * call, eval/retry_rate is the share of those episodes that call again after the first failure, and
 * eval/recovery_rate the share that call again and end with the right answer. With the tool, also asks what the
 * model does after a call when nobody answers it: a model trained on tool results writes "=<number>" itself
 * (eval/fabricated_result_rate).
 */
export async function evaluateAgent(model: TinyLM, task: AgentTask, problems: AgentProblem[], env: ToolEnvironment | undefined, maxCompletion: number): Promise<Metrics> {
  const prompts = problems.map((p) => task.encodePrompt(p));
  const episodes = (withEnv: ToolEnvironment | undefined) => greedyTexts(model, prompts, maxCompletion, task.tokenizer, withEnv);
  const { texts, truncated } = await episodes(env);
  const context = { answers: problems.map((p) => p.answer), truncated };
  const stats = episodeStats(texts, context);
  const share = (pick: (p: AgentProblem) => boolean, value: (i: number) => number) => {
    const idx = problems.flatMap((p, i) => (pick(p) ? [i] : []));
    return idx.length === 0 ? 0 : idx.reduce((s, i) => s + value(i), 0) / idx.length;
  };
  const metrics: Metrics = {
    'eval/accuracy': share(() => true, (i) => stats.correct[i]),
    'eval/accuracy_hard': share((p) => !p.easy, (i) => stats.correct[i]),
    'eval/accuracy_easy': share((p) => p.easy, (i) => stats.correct[i]),
    'eval/format': formatReward(texts, context).reduce((a, b) => a + b, 0) / texts.length,
    'eval/tool_call_rate': stats.callRate,
    'eval/tool_call_rate_hard': share((p) => !p.easy, (i) => Number(stats.perEpisode[i].calls > 0)),
    'eval/tool_call_rate_easy': share((p) => p.easy, (i) => Number(stats.perEpisode[i].calls > 0)),
    'eval/mean_turns': stats.meanTurns,
    'eval/calls_per_episode': stats.callFrequency,
  };
  // A split with no problem (the two-step task has no times-table facts) has no rate, not a rate of 0.
  for (const kind of ['easy', 'hard'] as const) {
    if (!problems.some((p) => p.easy === (kind === 'easy'))) for (const m of ['accuracy', 'tool_call_rate']) delete metrics[`eval/${m}_${kind}`];
  }
  if (stats.retryRate !== null) metrics['eval/retry_rate'] = stats.retryRate;
  if (stats.recoveryRate !== null) metrics['eval/recovery_rate'] = stats.recoveryRate;
  const calls = stats.perEpisode.reduce((s, e) => s + e.calls, 0);
  if (calls > 0) metrics['eval/tool_success_rate'] = 1 - stats.failureFrequency; // undefined without calls, not 0
  if (env) {
    const unanswered = await episodes(undefined);
    metrics['eval/fabricated_result_rate'] = unanswered.texts.filter((t) => /\]=\d/.test(t)).length / texts.length;
  }
  return metrics;
}

/** The agent's GRPO trainer; `customReward` is the reader's own function, scored on whole episodes after the built-in ones. */
export function createAgentTrainer(model: TinyLM, task: AgentTask, overrides: Partial<AgentConfig> = {}, customReward?: TrainerExtras['reward']): AgentTrainer {
  const config = resolveAgentConfig({ task: task.kind, ...overrides });
  if (config.task !== task.kind) throw new Error(`the config's task is ${config.task}, the task given is ${task.kind}`);
  checkFitsContext(task.promptLength, config.max_completion_length, model);
  const evalEnv = agentEvalEnvironment(task, config);
  // Training draws fresh failures at every generation batch (the salt names the seed and the batch). Within a batch
  // the draw depends on the episode's text only, so a group's episodes that wrote the same call share its fate: the
  // group compares what each does after the same failure.
  const trainEnv = (batch: number) =>
    config.use_tools ? agentEnvironment(task, config.max_tool_calling_iterations, randomCallFailures(config.tool_failure_rate, `train:${config.seed}:${batch}`)) : undefined;
  const rewardFns: { name: string; fn: RewardFunction | AsyncRewardFunction; weight: number }[] = [
    { name: 'correctness', fn: AGENT_REWARDS.correctness, weight: config.reward_weight_correctness },
    { name: 'format', fn: AGENT_REWARDS.format, weight: config.reward_weight_format },
    { name: 'tool_cost', fn: AGENT_REWARDS.tool_cost, weight: config.reward_weight_tool_cost },
    ...(customReward ? [{ name: 'custom', fn: customReward.fn, weight: customReward.weight }] : []),
  ];
  const root = createRng(config.seed);
  const dataRng: Rng = root.fork('agent-prompts');
  const sampleRng: Rng = root.fork('agent-sampling');
  const testSet = task.testSet(config.eval_samples);
  const G = config.num_generations;
  const tok = task.tokenizer;
  let generations = 0;
  let numTokens = 0;
  let lastSamples: AgentSamples | null = null;

  /** One generation batch of episodes, scored, with the loss mask the config asks for. */
  async function generateBatch(timer: StepTimer): Promise<Generated<AgentSamples>> {
    const problems = task.sample('train', (config.per_device_train_batch_size * config.steps_per_generation) / G, dataRng).flatMap((p) => Array<AgentProblem>(G).fill(p));
    const prompts = problems.map((p) => task.encodePrompt(p));
    const gen = await timer.timeAsync('generation', () =>
      generate(model, prompts, { temperature: config.temperature, max_completion_length: config.max_completion_length, eos_id: tok.eos, pad_id: tok.pad }, sampleRng, trainEnv(generations)),
    );
    const texts = problems.map((_, i) => decodeRow(task, gen, i));
    const context = { prompts: problems.map((p) => p.prompt), answers: problems.map((p) => p.answer), truncated: gen.finished.map((f) => !f), lengths: gen.lengths };
    const perFunc: number[][] = []; // [F][N]
    for (const r of rewardFns) perFunc.push(await r.fn(texts, context)); // in order: a reader's function runs last
    const rowsByFunc = problems.map((_, i) => perFunc.map((column) => column[i])); // [N][F]
    // The loss mask: the policy's tokens only, unless the bug is on and the environment's tokens count too.
    const lossMask = config.train_on_tool_results ? gen.completionMask.map((row, i) => row.map((m, t) => m + gen.observationMask[i][t])) : gen.completionMask;
    const stats = episodeStats(texts);
    generations += 1;
    numTokens += prompts.reduce((s, p) => s + p.length, 0) + gen.lengths.reduce((a, b) => a + b, 0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      batch: { prompts, completions: gen.completions, lossMask, rewardsPerFunc: rowsByFunc, rewardWeights: rewardFns.map((r) => r.weight), observationMask: config.use_tools ? gen.observationMask : undefined, pad: tok.pad },
      metrics: {
        ...Object.fromEntries(rewardFns.map((r, f) => [`rewards/${r.name}/mean`, mean(perFunc[f])])),
        'tools/call_frequency': stats.callFrequency,
        'tools/failure_frequency': stats.failureFrequency,
        // The sampled episodes' retry rate (as eval/retry_rate), on steps where some call failed.
        ...(stats.retryRate === null ? {} : { 'tools/retry_rate': stats.retryRate }),
        'turns/mean': stats.meanTurns,
        num_tokens: numTokens,
        'completions/mean_length': mean(gen.lengths),
        'completions/clipped_ratio': gen.finished.filter((f) => !f).length / gen.lengths.length,
      },
      samples: {
        step: generations,
        rewardNames: rewardFns.map((r) => r.name),
        rewardWeights: rewardFns.map((r) => r.weight),
        trainedOnObservations: config.train_on_tool_results,
        numGenerations: G,
        episodes: problems.map((p, i) => {
          const n = gen.lengths[i];
          return {
            prompt: p.prompt,
            answer: p.answer,
            easy: p.easy,
            tokens: gen.completions[i].slice(0, n).map((id) => tok.decode([id], { raw: true })),
            roles: gen.observationMask[i].slice(0, n).map((o): TokenRole => (o ? 'observation' : 'policy')),
            rewards: rowsByFunc[i],
            total: rowsByFunc[i].reduce((s, r, f) => s + r * rewardFns[f].weight, 0),
            advantage: 0,
            calls: stats.perEpisode[i].calls,
            failures: stats.perEpisode[i].failures,
            retried: stats.perEpisode[i].retried,
          };
        }),
      },
    };
  }

  const stepper = createGrpoStepper(model, config, generateBatch, root.fork('agent-shuffle'));

  const trainStep = (keep: Keep): Promise<Metrics> =>
    stepper.trainStep(keep, ({ samples, advantages }) => {
      samples.episodes.forEach((e, i) => (e.advantage = advantages[i]));
      lastSamples = samples;
    });

  return {
    config,
    model,
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(() => evaluateAgent(model, task, testSet, evalEnv, config.max_completion_length)),
    inspect: async () => lastSamples,
    dispose: () => stepper.dispose(),
  };
}

/**
 * Demonstrations for the agent's SFT: with probability `toolRate` an episode follows the plan with the calculator,
 * otherwise it answers directly. With probability `failureRate` a calling demonstration has a failed call ("=?"),
 * after which it calls again with probability `retryRate` and otherwise answers from memory: failures the policy
 * has seen, and recoveries to imitate. The calculator's tokens are masked out of the loss. Held-out evaluation as
 * the agent trainer's.
 */
export function agentSftSource(
  task: AgentTask,
  opts: { toolRate: number; easyToolRate?: number; failureRate?: number; retryRate?: number; evalSamples: number; maxCalls?: number },
): SftSource {
  const env = agentEnvironment(task, opts.maxCalls ?? 2);
  const testSet = task.testSet(opts.evalSamples);
  const failureRate = opts.failureRate ?? 0;
  return {
    batch(n, rng) {
      const problems = task.sample('train', n, rng);
      const demos = problems.map((p) => {
        const useTool = rng.next() < (p.easy ? opts.easyToolRate ?? opts.toolRate : opts.toolRate);
        // Drawn only when asked for, so that the product checkpoint's data stream is what it always was.
        const failure = useTool && failureRate > 0 && rng.next() < failureRate ? { call: rng.int(p.plan.length), retry: rng.next() < (opts.retryRate ?? 0) } : undefined;
        return task.demonstration(p, env, useTool, failure);
      });
      return { prompts: problems.map((p) => task.encodePrompt(p)), completions: demos.map((d) => d.completion), mask: demos.map((d) => d.mask) };
    },
    evaluate: (model) => evaluateAgent(model, task, testSet, env, agentMaxCompletion(task.kind)),
    pad: task.tokenizer.pad,
  };
}

/** For the registry: the agent from its task's tool-use SFT checkpoint, or from the untrained model (init_from: 'base'). */
export const agentFactory = lmTrainerFactory(
  (model, overrides, extras) => {
    const config = resolveAgentConfig(overrides);
    return createAgentTrainer(model, createAgentLabTask(config.task), config, extras.reward);
  },
  // The registry names no checkpoint for init_from 'base': the untrained model is made here, with seed 0.
  (init, overrides) => (init === null ? createTinyLM(agentModelConfig(createAgentLabTask(resolveAgentConfig(overrides).task)), 0) : loadTinyLM(init)),
);
