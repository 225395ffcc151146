/**
 * The agent lab's trainer: GRPO on multi-turn episodes. Each completion is an episode in which the policy may call
 * the calculator ("[347*6]"), the environment appends its answer ("=2082"), and the policy then answers
 * ("#### 2082"); on the two-step task it plans two calls ("[347*6]=2082 [2082+58]=2140 #### 2140"), and with
 * tool_failure_rate the calculator fails calls at random ("=?"), so that calling again pays. The environment's tokens
 * are context, not actions: the loss mask leaves them out, as TRL's tool mask does, unless train_on_tool_results
 * turns the bug on. SFT on demonstrations (sft-trainer.ts with agentSftSource) makes the checkpoints runs start from.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { generate } from '@/lib/models/generate';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { AGENT_REWARDS, agentEnvironment, episodeStats, randomCallFailures, type AgentProblem, type AgentTask } from '@/lib/tasks/agent';
import { episodeEnvironment } from '@/lib/tasks/agent-episodes';
import { memoryStats } from '@/lib/tasks/agent-memory';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import { attemptTexts, WRONG_REPLY } from '@/lib/tasks/reflection';
import { parseAnswer } from '@/lib/tasks/rewards';
import type { CharTokenizer } from '@/lib/tasks/tokenizer';
import { formatReward } from '@/lib/tasks/rewards';
import { agentSchema } from './agent-config';
import { ConfigError, type ConfigOf } from './config';
import { checkFitsContext, createGrpoStepper, type Generated } from './grpo-update';
import { agentMaxCompletion, agentModelConfig, createAgentLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { completionMetrics, mean, type NamedReward, resolveOnPolicyConfig, rewardMeans, sampleGroups, scoreRewards, updateConfigOf, weightedReward } from './on-policy';
import type { StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';
import type { SftSource } from './sft-trainer';
import type { StepTokenTerms } from './token-terms';
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
  /** Tries the episode took (answer_attempts 2: a second one after the reply "?"), and whether its first answer was right. */
  attempts: number;
  firstCorrect: boolean;
  /** The memory task: the episode wrote the asked fact, read it back and answered with it. */
  usedMemory: boolean;
}

export interface AgentSamples {
  step: number;
  /** The task the episodes are from: the viewer names the environment's replies by it (calculator, memory). */
  task: AgentTask['kind'];
  rewardNames: string[];
  rewardWeights: number[];
  /** True when the loss also trained on the observations (the bug): the viewer says so. */
  trainedOnObservations: boolean;
  /** True when the calculator answers only after the verdict (tool_after_verdict): the viewer says so. */
  toolAfterVerdict: boolean;
  numGenerations: number;
  episodes: AgentEpisode[];
  /** The latest step's token view: a few episodes of this batch (rows index `episodes`), token by token. */
  tokenTerms: StepTokenTerms | null;
}

export interface AgentTrainer extends LmTrainer<typeof agentSchema, AgentSamples> {
  readonly config: AgentConfig;
}

/** The agent's config from overrides, with the GRPO rules (lib/train/on-policy.ts) and the task's model length. */
export function resolveAgentConfig(overrides: Record<string, unknown> = {}): AgentConfig {
  const config = resolveOnPolicyConfig(agentSchema, overrides);
  const limit = agentMaxCompletion(config.task, config.answer_attempts);
  if (config.max_completion_length > limit) throw new ConfigError([`max_completion_length must be at most ${limit} for the ${config.task} task (its model's context), got ${config.max_completion_length}`]);
  // Without a second try (or a calculator) nothing would ever be answered: a run that could not mean what it says.
  if (config.tool_after_verdict && !(config.answer_attempts > 1 && config.use_tools && config.task === 'product')) {
    throw new ConfigError(['tool_after_verdict needs the product task with answer_attempts 2 and use_tools: it opens the calculator after the verdict "?", which only a second try gets']);
  }
  return config;
}

/** Evaluation draws the same random failures at every step and in every run: its salt is fixed. */
const EVAL_FAILURE_SALT = 'eval';

/**
 * The environment of held-out evaluation on `problems` under `config` (undefined when nothing answers): the run's
 * tool and call cap, its tries per episode, and with tool_failure_rate failures drawn with a fixed salt, so
 * evaluations are comparable across steps and runs.
 */
export function agentEvalEnvironment(task: AgentTask, config: AgentConfig, problems: readonly AgentProblem[]): ToolEnvironment | undefined {
  return episodeEnvironment(task, problems, rulesOf(config, randomCallFailures(config.tool_failure_rate, EVAL_FAILURE_SALT)));
}

const rulesOf = (config: AgentConfig, fails?: (text: string) => boolean) => ({
  useTools: config.use_tools,
  maxCalls: config.max_tool_calling_iterations,
  fails,
  maxAttempts: config.answer_attempts,
  toolAfterVerdict: config.tool_after_verdict,
});

/**
 * An episode read back: its tries (one unless the environment answered a wrong answer with "?"), the last one, which
 * rewards score, and the whole text, which tool costs count calls on.
 */
export function readEpisode(tokens: readonly number[], tokenizer: CharTokenizer) {
  const attempts = attemptTexts(tokens, tokenizer);
  return { attempts, final: attempts[attempts.length - 1], whole: attempts.join(` ${WRONG_REPLY} `) };
}

/** Greedy episodes read back, in batches of 128. */
async function greedyEpisodes(model: TinyLM, prompts: number[][], maxCompletion: number, tokenizer: CharTokenizer, env?: ToolEnvironment) {
  const episodes: ReturnType<typeof readEpisode>[] = [];
  const truncated: boolean[] = [];
  const rng = createRng('eval'); // unused by greedy decoding, required by the signature
  for (let i = 0; i < prompts.length; i += 128) {
    const rows = prompts.slice(i, i + 128);
    // The environment numbers rows within a call: each batch gets a view that adds its offset.
    const shifted: ToolEnvironment | undefined = env && {
      respond: (c, row = 0) => env.respond(c, row + i),
      respondToEnd: env.respondToEnd && ((c, row = 0) => env.respondToEnd!(c, row + i)),
    };
    const gen = await generate(model, rows, { temperature: 0, max_completion_length: maxCompletion, eos_id: tokenizer.eos, pad_id: tokenizer.pad }, rng, shifted);
    episodes.push(...gen.completions.map((c) => readEpisode(c, tokenizer)));
    truncated.push(...gen.finished.map((f) => !f));
  }
  return { episodes, truncated };
}

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
  const { episodes, truncated } = await greedyEpisodes(model, prompts, maxCompletion, task.tokenizer, env);
  const texts = episodes.map((e) => e.final);
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
  if (env?.respondToEnd) {
    // Reflection: accuracy above is after the last try; the first try's, and the share fixed by the second.
    const firstRight = episodes.map((e, i) => parseAnswer(e.attempts[0]) === problems[i].answer);
    metrics['eval/first_try_accuracy'] = share(() => true, (i) => Number(firstRight[i]));
    metrics['eval/fix_rate'] = share(() => true, (i) => Number(!firstRight[i] && stats.correct[i] === 1));
    // The hack a reward for fixing would invite, answering a known fact wrong so as to fix it: the share of the
    // times-table facts (easy problems, which the reflect checkpoints answer right from memory 82-88% of the time)
    // whose first try is wrong and second right. It counts honest slips too, so it starts above 0; a policy that
    // missed on purpose would raise it. No reward here pays for a fix, and a fix by calling costs a call.
    if (problems.some((p) => p.easy)) metrics['eval/deliberate_miss_rate'] = share((p) => p.easy, (i) => Number(!firstRight[i] && stats.correct[i] === 1));
  }
  if (task.kind === 'memory') {
    metrics['eval/memory_use_rate'] = share(() => true, (i) => Number(memoryStats(texts[i], problems[i].memory!.asked, parseAnswer(texts[i])).usedMemory));
  } else if (env && !env.respondToEnd) {
    // What the model writes after a call when no calculator answers it (the masking bug's symptom).
    const unanswered = await greedyEpisodes(model, prompts, maxCompletion, task.tokenizer, undefined);
    metrics['eval/fabricated_result_rate'] = unanswered.episodes.filter((e) => /\]=\d/.test(e.final)).length / texts.length;
  }
  return metrics;
}

/** The agent's GRPO trainer; `customReward` is the reader's own function, scored on whole episodes after the built-in ones. */
export function createAgentTrainer(model: TinyLM, task: AgentTask, overrides: Partial<AgentConfig> = {}, customReward?: TrainerExtras['reward']): AgentTrainer {
  const config = resolveAgentConfig({ task: task.kind, ...overrides });
  if (config.task !== task.kind) throw new Error(`the config's task is ${config.task}, the task given is ${task.kind}`);
  checkFitsContext(task.promptLength, config.max_completion_length, model);
  const testSet = task.testSet(config.eval_samples);
  const evalEnv = agentEvalEnvironment(task, config, testSet);
  // Training draws fresh failures at every generation batch (the salt names the seed and the batch). Within a batch
  // the draw depends on the episode's text only, so a group's episodes that wrote the same call share its fate: the
  // group compares what each does after the same failure.
  const trainEnv = (batch: number, problems: AgentProblem[]) => episodeEnvironment(task, problems, rulesOf(config, randomCallFailures(config.tool_failure_rate, `train:${config.seed}:${batch}`)));
  // Each function scores the last try's text, except the tool cost, which counts the calls of every try.
  const rewardFns: (NamedReward & { whole?: boolean })[] = [
    { name: 'correctness', fn: AGENT_REWARDS.correctness, weight: config.reward_weight_correctness },
    { name: 'format', fn: AGENT_REWARDS.format, weight: config.reward_weight_format },
    { name: 'tool_cost', fn: AGENT_REWARDS.tool_cost, weight: config.reward_weight_tool_cost, whole: true },
    ...(customReward ? [{ name: 'custom', fn: customReward.fn, weight: customReward.weight }] : []),
  ];
  const root = createRng(config.seed);
  const dataRng: Rng = root.fork('agent-prompts');
  const sampleRng: Rng = root.fork('agent-sampling');
  const G = config.num_generations;
  const tok = task.tokenizer;
  let generations = 0;
  let numTokens = 0;
  let lastSamples: AgentSamples | null = null;

  /** One generation batch of episodes, scored, with the loss mask the config asks for. */
  async function generateBatch(timer: StepTimer): Promise<Generated<AgentSamples>> {
    const groups = (config.per_device_train_batch_size * config.steps_per_generation) / G;
    const { problems, prompts, generation: gen, context } = await timer.timeAsync('generation', () =>
      sampleGroups(model, task, groups, config, { problems: dataRng, sampling: sampleRng }, (drawn) => trainEnv(generations, drawn)),
    );
    const read = gen.completions.map((c) => readEpisode(c, tok));
    const texts = read.map((e) => e.final);
    const scores = await scoreRewards(rewardFns, (r) => (r.whole ? read.map((e) => e.whole) : texts), context); // [N][F]
    // The loss mask: the policy's tokens only, unless the bug is on and the environment's tokens count too.
    const lossMask = config.train_on_tool_results ? gen.completionMask.map((row, i) => row.map((m, t) => m + gen.observationMask[i][t])) : gen.completionMask;
    const stats = episodeStats(read.map((e) => e.whole));
    const firstRight = read.map((e, i) => parseAnswer(e.attempts[0]) === problems[i].answer);
    const right = scores.map((row) => row[0] === 1);
    const used = problems.map((p, i) => (p.memory ? memoryStats(texts[i], p.memory.asked, parseAnswer(texts[i])).usedMemory : false));
    generations += 1;
    numTokens += prompts.reduce((s, p) => s + p.length, 0) + gen.lengths.reduce((a, b) => a + b, 0);
    return {
      batch: { prompts, completions: gen.completions, lossMask, rewardsPerFunc: scores, rewardWeights: rewardFns.map((r) => r.weight), observationMask: config.use_tools ? gen.observationMask : undefined, pad: tok.pad },
      metrics: {
        ...rewardMeans(rewardFns, scores),
        'tools/call_frequency': stats.callFrequency,
        'tools/failure_frequency': stats.failureFrequency,
        // The sampled episodes' retry rate (as eval/retry_rate), on steps where some call failed.
        ...(stats.retryRate === null ? {} : { 'tools/retry_rate': stats.retryRate }),
        'turns/mean': stats.meanTurns,
        // The sampled episodes' memory use and fixes (as eval/memory_use_rate and eval/fix_rate).
        ...(task.kind === 'memory' ? { 'memory/use_rate': mean(used.map(Number)) } : {}),
        ...(config.answer_attempts > 1 ? { 'reflection/fix_rate': mean(right.map((r, i) => Number(r && !firstRight[i]))) } : {}),
        num_tokens: numTokens,
        ...completionMetrics(gen.lengths, context.truncated),
      },
      samples: {
        step: generations,
        task: task.kind,
        rewardNames: rewardFns.map((r) => r.name),
        rewardWeights: rewardFns.map((r) => r.weight),
        trainedOnObservations: config.train_on_tool_results,
        toolAfterVerdict: config.tool_after_verdict,
        numGenerations: G,
        episodes: problems.map((p, i) => {
          const n = gen.lengths[i];
          return {
            prompt: p.prompt,
            answer: p.answer,
            easy: p.easy,
            tokens: gen.completions[i].slice(0, n).map((id) => tok.decode([id], { raw: true })),
            roles: gen.observationMask[i].slice(0, n).map((o): TokenRole => (o ? 'observation' : 'policy')),
            rewards: scores[i],
            total: weightedReward(scores[i], rewardFns),
            advantage: 0,
            calls: stats.perEpisode[i].calls,
            failures: stats.perEpisode[i].failures,
            retried: stats.perEpisode[i].retried,
            attempts: read[i].attempts.length,
            firstCorrect: firstRight[i],
            usedMemory: used[i],
          };
        }),
        tokenTerms: null,
      },
    };
  }

  const stepper = createGrpoStepper(model, updateConfigOf(config), generateBatch, root.fork('agent-shuffle'));

  const trainStep = (keep: Keep): Promise<Metrics> =>
    stepper.trainStep(
      keep,
      ({ samples, advantages }) => {
        samples.episodes.forEach((e, i) => (e.advantage = advantages[i]));
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
    evaluate: () => inTensorScope(() => evaluateAgent(model, task, testSet, evalEnv, config.max_completion_length)),
    inspect: async () => lastSamples,
    dispose: () => stepper.dispose(),
  };
}

/**
 * Demonstrations for the agent's SFT: with probability `toolRate` an episode follows the plan with the tool,
 * otherwise it answers directly. With probability `failureRate` a calling demonstration has a failed call ("=?"),
 * after which it calls again with probability `retryRate` and otherwise answers from memory: failures the policy
 * has seen, and recoveries to imitate. With `wrongFirstRate` (and `attempts` 2), that share of the demonstrations
 * that answer directly answer wrong first, get "?" and try again, calling with probability `toolRate` as a first try
 * does (secondToolRate, when given, instead): the wrong try is context (mask 0), only the second is imitated. The tool's tokens are masked out of the loss. Held-out evaluation as the agent trainer's.
 */
export function agentSftSource(
  task: AgentTask,
  opts: { toolRate: number; easyToolRate?: number; failureRate?: number; retryRate?: number; wrongFirstRate?: number; secondToolRate?: number; attempts?: number; evalSamples: number; maxCalls?: number },
): SftSource {
  const maxCalls = opts.maxCalls ?? 2;
  const attempts = opts.attempts ?? 1;
  const env = agentEnvironment(task, maxCalls);
  const testSet = task.testSet(opts.evalSamples);
  const failureRate = opts.failureRate ?? 0;
  const wrongFirstRate = opts.wrongFirstRate ?? 0;
  if (wrongFirstRate > 0 && attempts < 2) throw new Error('wrongFirstRate needs attempts 2: a wrong first try gets a second only then');
  return {
    batch(n, rng) {
      const problems = task.sample('train', n, rng);
      const demos = problems.map((p) => {
        const useTool = rng.next() < (p.easy ? opts.easyToolRate ?? opts.toolRate : opts.toolRate);
        // Drawn only when asked for, so that the product checkpoint's data stream is what it always was.
        const failure = useTool && failureRate > 0 && rng.next() < failureRate ? { call: rng.int(p.plan.length), retry: rng.next() < (opts.retryRate ?? 0) } : undefined;
        // The second try is demonstrated as a first one is (a call with probability toolRate): SFT shows that a try
        // follows "?", never that a call should; choosing to call after "?" is left to GRPO.
        if (!useTool && wrongFirstRate > 0 && rng.next() < wrongFirstRate) return wrongThenRight(task, p, env, wrongAnswer(p.answer, rng), rng.next() < (opts.secondToolRate ?? opts.toolRate));
        return task.demonstration(p, env, useTool, failure);
      });
      return { prompts: problems.map((p) => task.encodePrompt(p)), completions: demos.map((d) => d.completion), mask: demos.map((d) => d.mask) };
    },
    evaluate: (model) =>
      evaluateAgent(model, task, testSet, episodeEnvironment(task, testSet, { useTools: true, maxCalls, maxAttempts: attempts }), agentMaxCompletion(task.kind, attempts)),
    pad: task.tokenizer.pad,
  };
}

/** A near miss: the answer with one digit changed (never the answer itself, never a leading zero). */
export function wrongAnswer(answer: string, rng: Rng): string {
  const at = rng.int(answer.length);
  const digits = [...'0123456789'].filter((d) => d !== answer[at] && !(at === 0 && d === '0'));
  return answer.slice(0, at) + digits[rng.int(digits.length)] + answer.slice(at + 1);
}

/** "#### <wrong><eos>?" as context, then a right second try: "[347*6]=2082 #### 2082<eos>" with the tool, "#### 2082<eos>" without. */
function wrongThenRight(task: AgentTask, p: AgentProblem, env: ToolEnvironment, wrong: string, useTool: boolean): { completion: number[]; mask: number[] } {
  const tok = task.tokenizer;
  const first = [...tok.encode(`#### ${wrong}`), tok.eos, ...tok.encode(WRONG_REPLY)];
  const fix = task.demonstration(p, env, useTool);
  // The calculator sees only the second try: replayed alone, then placed after the first.
  return { completion: [...first, ...fix.completion], mask: [...first.map(() => 0), ...fix.mask] };
}

/** For the registry: the agent from its task's tool-use SFT checkpoint, or from the untrained model (init_from: 'base'). */
export const agentFactory = lmTrainerFactory(
  (model, overrides, extras) => {
    const config = resolveAgentConfig(overrides);
    return createAgentTrainer(model, createAgentLabTask(config.task), config, extras.reward);
  },
  // The registry names no checkpoint for init_from 'base': the untrained model is made here, with seed 0.
  (init, overrides) => {
    if (init !== null) return loadTinyLM(init);
    const config = resolveAgentConfig(overrides);
    return createTinyLM(agentModelConfig(createAgentLabTask(config.task), config.answer_attempts), 0);
  },
);
