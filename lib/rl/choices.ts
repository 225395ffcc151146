/**
 * The choice lists of the RL losses (TRL's names), with no tfjs import: configs, lab controls and chapter widgets
 * read them from here instead of keeping copies.
 */
export const GRPO_LOSS_TYPES = ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const;
export type GrpoLossType = (typeof GRPO_LOSS_TYPES)[number];

export const SCALE_REWARDS = ['group', 'batch', 'none'] as const;
export type ScaleRewards = (typeof SCALE_REWARDS)[number];

export const IMPORTANCE_SAMPLING_LEVELS = ['token', 'sequence'] as const;
export type ImportanceSamplingLevel = (typeof IMPORTANCE_SAMPLING_LEVELS)[number];

export const DPO_LOSS_TYPES = ['sigmoid', 'robust', 'hinge', 'ipo'] as const;
export type DpoLossType = (typeof DPO_LOSS_TYPES)[number];
