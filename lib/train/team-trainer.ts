/**
 * The team lab's trainer: two policies, a sender and a receiver (two TinyLMs, not one model with a role token: each
 * role keeps its own weights and optimizer, so the frozen_sender preset can freeze one role exactly, the lazy_partner
 * preset can give the roles different paces, and neither role's update moves the other's behaviour), cooperating on
 * the referential game of lib/tasks/team.ts.
 *
 * One team rollout: the sender samples a message of at most max_message_length tokens from its private input; the
 * channel delivers it (or blanks) into the receiver's prompt after the board; the receiver samples one answer token.
 * The team's reward is 1 when the answer is right. Each problem gets num_generations team rollouts, and each role's
 * GRPO update (grpo-update.ts) computes group-relative advantages over that same group of team rollouts from that one
 * reward: the same advantage reaches the sender's message tokens and the receiver's answer token. Each role's loss
 * mask covers only the tokens it sampled: the board (environment) and the partner's message sit in the receiver's
 * prompt, the target in the sender's, so neither is ever trained on.
 */
import { assignWeights, loadTinyLM, saveWeights, type Checkpointable } from '@/lib/models/checkpoint';
import { generate } from '@/lib/models/generate';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import type { TinyLMConfig } from '@/lib/models/config';
import { decodeWeightsFile, WeightsFileError } from '@/lib/models/weights-file';
import { createRng, type Rng } from '@/lib/random';
import { BOARD_SIZE, createTeamTask, messageInformation, type TeamProblem, type TeamTask } from '@/lib/tasks/team';
import type { ConfigOf } from './config';
import { createGrpoStepper, type Generated, type GroupBatch, type GrpoStepper } from './grpo-update';
import { mean, repeatEach, resolveOnPolicyConfig, samplingConfig, updateConfigOf } from './on-policy';
import { StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';
import { TEAM_MAX_MESSAGE_LENGTH, teamSchema } from './team-config';
import { ownModel, type Trainer, type TrainerFactory } from './trainer';

export type TeamConfig = ConfigOf<typeof teamSchema>;

/** One team rollout of the latest step, for the lab's side-by-side view. */
export interface TeamEpisode {
  board: string;
  target: number;
  answer: string;
  /** The sender's tokens as written (EOS shown as '<eos>'), and the message the channel delivered ('.' for blanks). */
  senderTokens: string[];
  delivered: string;
  /** The receiver's answer token. */
  reply: string;
  reward: number;
  advantage: number;
}

/** What one message has come to mean: how often it was sent for each target, and how often the team was then right. */
export interface MessageMeaning {
  message: string;
  /** [BOARD_SIZE] times sent for each target position. */
  targets: number[];
  /** Share of the rollouts with this message that the receiver answered right. */
  accuracy: number;
}

export interface TeamSamples {
  step: number;
  numGenerations: number;
  blankChannel: boolean;
  trainSender: boolean;
  episodes: TeamEpisode[];
  /** Every message of the step's batch, most frequent first. */
  meanings: MessageMeaning[];
}

export interface TeamModels extends Checkpointable {
  readonly sender: TinyLM;
  readonly receiver: TinyLM;
  dispose(): void;
}

/** Both roles as one checkpoint: each weight named after its role ("sender.blocks.0…", "receiver.…"). */
export function teamModels(sender: TinyLM, receiver: TinyLM): TeamModels {
  return {
    kind: 'team',
    config: { sender: sender.config, receiver: receiver.config },
    sender,
    receiver,
    namedWeights: () =>
      new Map([
        ...[...sender.namedWeights()].map(([name, v]) => [`sender.${name}`, v] as const),
        ...[...receiver.namedWeights()].map(([name, v]) => [`receiver.${name}`, v] as const),
      ]),
    dispose() {
      sender.dispose();
      receiver.dispose();
    },
  };
}

/** The receiver's model: context for the longest channel, so one checkpoint serves every max_message_length. */
export function receiverModelConfig(task: TeamTask): TinyLMConfig {
  return configForTask({ tokenizer: task.tokenizer, promptLength: task.receiverPromptLength(TEAM_MAX_MESSAGE_LENGTH), maxCompletionLength: 1 });
}

/** The sender's model: context for the longest message, so one checkpoint serves every max_message_length. */
export function senderModelConfig(task: TeamTask): TinyLMConfig {
  return configForTask({ tokenizer: task.tokenizer, promptLength: task.senderPromptLength, maxCompletionLength: TEAM_MAX_MESSAGE_LENGTH });
}

/** An untrained sender (seeded from the run's seed: each seed is a different speaker), sized for the longest channel. */
export function createSender(task: TeamTask, seed: number): TinyLM {
  return createTinyLM(senderModelConfig(task), 2 * seed + 1);
}

/**
 * The two roles a run starts from: a team checkpoint (kind 'team': both roles, a saved run), or the receiver's SFT
 * checkpoint (a 'tiny-lm') with a fresh sender, or with no file (init_from 'base') both untrained.
 */
export function initialTeamModels(task: TeamTask, config: Pick<TeamConfig, 'seed'>, init: Uint8Array | null): TeamModels {
  if (init === null) return teamModels(createSender(task, config.seed), createTinyLM(receiverModelConfig(task), 2 * config.seed + 2));
  const file = decodeWeightsFile(init);
  if (file.kind === 'tiny-lm') {
    const receiver = loadTinyLM(init);
    if (receiver.config.context_length !== receiverModelConfig(task).context_length || receiver.config.vocab_size !== task.tokenizer.vocabSize) {
      receiver.dispose();
      throw new WeightsFileError('this model is not a team receiver: its vocabulary or context differs from the team task’s');
    }
    return teamModels(createSender(task, config.seed), receiver);
  }
  const models = teamModels(createSender(task, config.seed), createTinyLM(receiverModelConfig(task), 2 * config.seed + 2));
  try {
    assignWeights(models, file); // kind, names and shapes checked before any weight moves
  } catch (error) {
    models.dispose();
    throw error;
  }
  return models;
}

/** The team config from overrides; a step's rollouts come in whole groups (lib/train/on-policy.ts). */
export function resolveTeamConfig(overrides: Record<string, unknown> = {}): TeamConfig {
  return resolveOnPolicyConfig(teamSchema, overrides);
}

/** One batch of team rollouts: each role's prompts, what it sampled and its loss mask, and the team's reward. */
export interface TeamRollout {
  /** [N][L] the sender's sampled tokens (PAD after EOS) and its loss mask. */
  messages: number[][];
  messageMask: number[][];
  senderPrompts: number[][];
  receiverPrompts: number[][];
  /** [N][1] the receiver's token and its mask. */
  replies: number[][];
  replyMask: number[][];
  rewards: number[];
}

/**
 * What one role trains on: its own prompts and sampled tokens, its own loss mask (the sender's message up to EOS; the
 * receiver's one answer token), and the team's one reward. The partner's tokens and the board are only ever in a
 * prompt, so no role's loss sees them; and both roles' advantages come from the same rewards in the same groups.
 */
export function roleBatch(role: 'sender' | 'receiver', r: TeamRollout, pad: number): GroupBatch {
  const rewardsPerFunc = r.rewards.map((x) => [x]);
  return role === 'sender'
    ? { prompts: r.senderPrompts, completions: r.messages, lossMask: r.messageMask, rewardsPerFunc, rewardWeights: [1], pad }
    : { prompts: r.receiverPrompts, completions: r.replies, lossMask: r.replyMask, rewardsPerFunc, rewardWeights: [1], pad };
}

export interface TeamTrainer extends Trainer<typeof teamSchema, TeamSamples> {
  readonly model: TeamModels;
  /** Sampled team rollouts of these problems, as a training step makes them (for tests and the lab's probes). */
  rollout(problems: TeamProblem[]): Promise<TeamRollout>;
}

export function createTeamTrainer(models: TeamModels, task: TeamTask, overrides: Partial<TeamConfig> = {}): Omit<TeamTrainer, 'save'> {
  const config = resolveTeamConfig(overrides);
  const L = config.max_message_length;
  const { sender, receiver } = models;
  if (sender.config.context_length < task.senderPromptLength + L - 1 || receiver.config.context_length < task.receiverPromptLength(L)) {
    throw new Error(`the models' contexts (sender ${sender.config.context_length}, receiver ${receiver.config.context_length}) do not fit a channel of ${L} tokens`);
  }
  const tok = task.tokenizer;
  const G = config.num_generations;
  const root = createRng(config.seed);
  const dataRng: Rng = root.fork('team-problems');
  const sampleRng: Rng = root.fork('team-sampling');
  const testSet = task.testSet(config.eval_samples);
  let numTokens = 0;
  let generations = 0;
  let lastSamples: TeamSamples | null = null;

  const rollout = (problems: TeamProblem[], greedy: boolean, rng: Rng, blank = config.blank_channel) => teamRollout(models, task, config, problems, greedy, rng, blank);
  const spoken = (message: number[]) => spokenTokens(task, message);
  const text = (ids: readonly number[]) => messageText(task, ids);

  /** The step's shared rollout, handed to each role's stepper when it asks for its batch. */
  let pending: TeamRollout | null = null;
  const batchFor = (role: 'sender' | 'receiver'): Generated<null> => ({ batch: roleBatch(role, pending!, tok.pad), metrics: {}, samples: null });
  const receiverRate = config.learning_rate * config.receiver_learning_rate_multiplier;
  // Each role's update is on-policy (one per rollout batch, on-policy.ts updateConfigOf), at its own rate and length.
  const steppers: { role: 'sender' | 'receiver'; stepper: GrpoStepper<null> }[] = [
    ...(config.train_sender ? [{ role: 'sender' as const, stepper: createGrpoStepper(sender, updateConfigOf({ ...config, max_completion_length: L }), async () => batchFor('sender'), root.fork('sender-shuffle')) }] : []),
    { role: 'receiver', stepper: createGrpoStepper(receiver, updateConfigOf({ ...config, learning_rate: receiverRate, max_completion_length: 1 }), async () => batchFor('receiver'), root.fork('receiver-shuffle')) },
  ];

  async function trainStep(keep: Keep): Promise<Metrics> {
    const timer = new StepTimer();
    const base = task.sample('train', config.per_device_train_batch_size / G, dataRng);
    const problems = repeatEach(base, G);
    const r = await timer.timeAsync('generation', () => rollout(problems, false, sampleRng));
    pending = r;
    generations += 1;
    const sent = r.messages.map(spoken);
    numTokens += r.senderPrompts.reduce((s, p) => s + p.length, 0) + sent.reduce((s, m) => s + m.length + 1, 0) + r.receiverPrompts.reduce((s, p) => s + p.length + 1, 0);
    const info = messageInformation(problems.map((p, i) => ({ message: text(sent[i]), target: p.target })));
    const messageMetrics = {
      'messages/mean_length': sent.reduce((s, m) => s + m.length, 0) / sent.length,
      'messages/decodability': info.decodability,
      'messages/distinct': info.meanings.size,
      num_tokens: numTokens,
    };
    const metrics: Metrics = {};
    let advantages: Float32Array | null = null;
    try {
      for (const { role, stepper } of steppers) {
        const m = await stepper.trainStep(keep, (g) => (advantages = g.advantages));
        for (const [name, value] of Object.entries(m)) {
          // The team's reward is one number for both roles: logged once, under TRL's names.
          if (['reward', 'reward_std', 'frac_reward_zero_std'].includes(name)) metrics[name] = value;
          else if (!name.startsWith('timing/')) metrics[`${role}/${name}`] = value;
          // Both roles' phases add up under the phase names every trainer logs (npm run bench's columns).
          else if (name !== 'timing/step_ms') timer.add(name.slice('timing/'.length, -'_ms'.length), value);
        }
      }
    } finally {
      pending = null;
    }
    lastSamples = samplesOf(problems, r, sent, advantages);
    return { ...metrics, ...messageMetrics, ...timer.metrics() };
  }

  function samplesOf(problems: TeamProblem[], r: TeamRollout, sent: number[][], advantages: Float32Array | null): TeamSamples {
    const byMessage = new Map<string, { targets: number[]; right: number }>();
    problems.forEach((p, i) => {
      const key = config.blank_channel ? '' : text(sent[i]);
      const entry = byMessage.get(key) ?? { targets: Array<number>(BOARD_SIZE).fill(0), right: 0 };
      entry.targets[p.target] += 1;
      entry.right += r.rewards[i];
      byMessage.set(key, entry);
    });
    const meanings = [...byMessage].map(([message, e]) => {
      const n = e.targets.reduce((a, b) => a + b, 0);
      return { message, targets: e.targets, accuracy: e.right / n };
    });
    meanings.sort((a, b) => b.targets.reduce((s, x) => s + x, 0) - a.targets.reduce((s, x) => s + x, 0) || (a.message < b.message ? -1 : 1));
    return {
      step: generations,
      numGenerations: G,
      blankChannel: config.blank_channel,
      trainSender: config.train_sender,
      meanings,
      episodes: problems.map((p, i) => ({
        board: p.board,
        target: p.target,
        answer: p.answer,
        senderTokens: r.messages[i].slice(0, Math.max(1, r.messageMask[i].reduce((a, b) => a + b, 0))).map((id) => tok.decode([id], { raw: true })),
        delivered: tok.decode(r.receiverPrompts[i].slice(task.receiverPromptLength(0)), { raw: true }),
        reply: tok.decode(r.replies[i].slice(0, 1), { raw: true }),
        reward: r.rewards[i],
        advantage: advantages ? advantages[i] : 0,
      })),
    };
  }

  const evaluate = () => evaluateTeam(models, task, config, testSet);

  return {
    config,
    model: models,
    rollout: (problems: TeamProblem[]) => rollout(problems, false, sampleRng),
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(evaluate),
    inspect: async () => lastSamples,
    dispose: () => steppers.forEach((s) => s.stepper.dispose()),
  };
}

/** Sender then receiver, sampled at the run's temperature (or greedy, for evaluation), on these problems. */
async function teamRollout(models: TeamModels, task: TeamTask, config: TeamConfig, problems: TeamProblem[], greedy: boolean, rng: Rng, blank: boolean): Promise<TeamRollout> {
  const tok = task.tokenizer;
  const L = config.max_message_length;
  const senderPrompts = problems.map((p) => task.encodeSenderPrompt(p));
  const temperature = greedy ? 0 : config.temperature;
  const said = await generate(models.sender, senderPrompts, samplingConfig({ temperature, max_completion_length: L }, tok), rng);
  const receiverPrompts = problems.map((p, i) => task.encodeReceiverPrompt(p, said.completions[i], L, blank));
  const answered = await generate(models.receiver, receiverPrompts, samplingConfig({ temperature, max_completion_length: 1 }, tok), rng);
  const answerIds = problems.map((p) => tok.encode(p.answer)[0]);
  return {
    messages: said.completions,
    messageMask: said.completionMask,
    senderPrompts,
    receiverPrompts,
    replies: answered.completions,
    replyMask: answered.completionMask,
    rewards: answered.completions.map((c, i) => Number(c[0] === answerIds[i])),
  };
}

/** Tokens the sender said (before EOS, cut to the channel): what eval/message_length counts. */
function spokenTokens(task: TeamTask, message: number[]): number[] {
  const end = message.indexOf(task.tokenizer.eos);
  return (end < 0 ? message : message.slice(0, end)).filter((t) => t !== task.tokenizer.pad);
}

// Every token the sender said counts, specials included: a BOS it writes reaches the receiver as a token of its own.
const messageText = (task: TeamTask, ids: readonly number[]) => task.tokenizer.decode(ids, { raw: true });

/**
 * Greedy team rollouts on held-out problems: the team's accuracy; the channel's use (mean message length, how many
 * distinct messages); how much the messages say about the target (decodability: the best message-only decoder's
 * accuracy; mutual information in bits); and the accuracy when the channel is blanked at evaluation, which tells
 * whether the receiver reads the messages at all. The trainer runs it on its test set; grading
 * (lib/train/grading/team.ts) on a saved team, with the test set or the instructor's seeded problems.
 */
export async function evaluateTeam(models: TeamModels, task: TeamTask, config: TeamConfig, problems: TeamProblem[]): Promise<Metrics> {
  const rng = createRng('eval'); // unused by greedy decoding
  const chunks: TeamRollout[] = [];
  const blanked: TeamRollout[] = [];
  for (let i = 0; i < problems.length; i += 128) {
    chunks.push(await teamRollout(models, task, config, problems.slice(i, i + 128), true, rng, config.blank_channel));
    blanked.push(await teamRollout(models, task, config, problems.slice(i, i + 128), true, rng, true));
  }
  const rewards = chunks.flatMap((c) => c.rewards);
  const sent = chunks.flatMap((c) => c.messages.map((m) => spokenTokens(task, m)));
  const info = messageInformation(problems.map((p, i) => ({ message: messageText(task, sent[i]), target: p.target })));
  return {
    'eval/accuracy': mean(rewards),
    'eval/accuracy_blank_channel': mean(blanked.flatMap((c) => c.rewards)),
    'eval/message_length': config.blank_channel ? 0 : mean(sent.map((m) => m.length)),
    'eval/message_decodability': config.blank_channel ? 1 / BOARD_SIZE : info.decodability,
    'eval/message_information_bits': config.blank_channel ? 0 : info.mutualInformation,
    'eval/distinct_messages': config.blank_channel ? 0 : info.meanings.size,
  };
}

/** For the registry: fresh untrained roles, or both roles from a team checkpoint (--init, a saved run). */
export const teamFactory: TrainerFactory<typeof teamSchema, TeamSamples> = async (init, overrides) => {
  const config = resolveTeamConfig(overrides);
  const task = createTeamTask();
  const models = initialTeamModels(task, config, init);
  const trainer = await ownModel(models, (m) => createTeamTrainer(m, task, config));
  return Object.assign(trainer, { save: () => saveWeights(models) });
};
