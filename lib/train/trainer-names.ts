/**
 * The names of the trainers, in the order the CLI lists them. Each has one spec in lib/spec/registry.ts (which must
 * list exactly these: it fails to compile otherwise); modules below the specs, such as a claim naming the trainer
 * its run uses, type a trainer's name with this. Data only.
 */
export const TRAINER_NAMES = ['sft', 'grpo', 'dpo', 'agent', 'ppo', 'self_improve', 'team', 'vision'] as const;
export type TrainerName = (typeof TRAINER_NAMES)[number];
