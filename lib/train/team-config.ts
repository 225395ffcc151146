import { sftOrBase, type Presets, type Schema } from './config';
import { grpoSchema } from './grpo-config';

/** The longest message the channel carries: four tokens is twice what naming one of four positions needs. */
export const TEAM_MAX_MESSAGE_LENGTH = 4;

/**
 * The team lab: two policies, a sender and a receiver, each trained by GRPO (GRPOConfig's names, TRL v1.13) on the
 * team's one reward. The GRPO fields keep their reasons from grpo-config.ts unless a reason below says why not.
 */
export const teamSchema = {
  learning_rate: {
    ...grpoSchema.learning_rate,
    default: 1e-3,
    reason: 'The sender starts untrained, so it needs more than the 3e-4 the SFT-started labs use; each role has its own Adam. Measured (seed 0): 1e-3 reaches 100% held-out by step 150; 3e-3 lets the sender settle on too few messages (80% at step 250).',
  },
  receiver_learning_rate_multiplier: {
    kind: 'number',
    default: 1,
    min: 0.1,
    max: 100,
    reason: 'The receiver’s rate is learning_rate times this. 1: the roles learn at one pace. The lazy_partner preset sets 10: the team fails.',
  },
  per_device_train_batch_size: { ...grpoSchema.per_device_train_batch_size, reason: 'Team rollouts per step: 8 problems × 8 rollouts each.' },
  num_generations: { ...grpoSchema.num_generations, reason: 'Team rollouts per problem (G): the group each rollout’s reward is compared with, for both roles.' },
  max_message_length: {
    kind: 'number',
    default: 2,
    min: 1,
    max: TEAM_MAX_MESSAGE_LENGTH,
    integer: true,
    reason: 'The channel’s bound in tokens: the sender writes at most this many (EOS may end it sooner). One token can name one of four positions; two leave room to say it redundantly.',
  },
  blank_channel: { kind: 'boolean', default: false, reason: 'The channel carries the message. On (the no_message preset), the receiver sees only blanks: the team’s ceiling without communication.' },
  train_sender: { kind: 'boolean', default: true, reason: 'Both roles learn. Off (the frozen_sender preset), the sender keeps its random initial policy and only the receiver adapts.' },
  temperature: { ...grpoSchema.temperature, reason: 'Both roles sample from their policies themselves (TRL’s default, 1). Measured: at 0.3 the untrained sender rarely tries the digit the receiver reads and settles on one message for every target.' },
  beta: { ...grpoSchema.beta, reason: 'KL penalty towards each role’s initial policy (TRL’s k3 estimator).' },
  epsilon: grpoSchema.epsilon,
  loss_type: grpoSchema.loss_type,
  scale_rewards: grpoSchema.scale_rewards,
  init_from: sftOrBase(
    'The receiver starts from its SFT checkpoint, a listener that reads one convention (a position’s digit names it); the sender always starts untrained. "base": both untrained (the from_scratch preset).',
  ),
  max_grad_norm: grpoSchema.max_grad_norm,
  max_steps: { ...grpoSchema.max_steps, default: 200, reason: 'Measured (wasm): the default run reaches 97–100% held-out by step 125 on seed 0 and by step 50 on seeds 1 and 2; 200 steps leave room for a slower seed.' },
  eval_steps: { ...grpoSchema.eval_steps, default: 25, reason: 'Held-out accuracy and what the messages say, every 25 steps.' },
  eval_samples: grpoSchema.eval_samples,
  seed: grpoSchema.seed,
} satisfies Schema;

export const teamPresets = {
  default: {
    description:
      'Both roles trained on the team reward, the receiver from its listener checkpoint and the sender untrained: the sender discovers the convention its partner reads, and held-out team accuracy climbs from 28% to 99.5–100% after 200 steps (seeds 0–2; seed 0 passes 95% at step 125), about 67 points above the no-message ceiling. On held-out boards the greedy messages come to name the target (decodability above 90% on every seed); the table of meanings counts one step’s sampled rollouts, so rare messages the sender still tries sit below the ones in use.',
    overrides: {},
  },
  no_message: {
    description: 'The channel is blank: the receiver sees only its board. Its best is to guess a digit of it: 32.5% after 200 steps, the ceiling without communication.',
    overrides: { blank_channel: true },
  },
  frozen_sender: {
    description: 'Only the receiver learns; the sender keeps its random initial policy. One-sided adaptation ends at 24%, below the no-message ceiling: the receiver keeps reading the untrained sender’s random digits as positions.',
    overrides: { train_sender: false },
  },
  from_scratch: {
    description: 'Both roles untrained (no listener checkpoint): the receiver learns to answer with some digit of its board, which any message helps with alike, so the sender settles on one message for every target and the receiver learns to ignore it. No protocol forms at this scale: 27.5% after 200 steps, at the no-message ceiling.',
    overrides: { init_from: 'base' },
  },
  lazy_partner: {
    description: 'The receiver learns ten times faster than the sender: its large updates on rollouts whose messages still mean nothing overwrite its reading, it settles on one answer (9% after 200 steps, the same with the channel blanked), and from then on no message changes the reward, so the sender gets no signal and ends a lazy partner with one message for every target.',
    overrides: { receiver_learning_rate_multiplier: 10 },
  },
} satisfies Presets<typeof teamSchema>;
