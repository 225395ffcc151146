/**
 * The labs registry: every lab here has its own full-page route, app/labs/<slug>/page.tsx (a static
 * folder rather than a [slug] route, because a static export cannot have a dynamic route with no pages
 * and each lab's code should be its own chunk), its code in labs/<slug>/, and may be embedded in
 * chapters with <LabEmbed lab="<slug>" />. Tests check that the registry and the route folders agree.
 */
export interface LabEntry {
  slug: string;
  title: string;
  summary: string;
  /** The chapter that teaches what the lab trains. */
  chapter: string;
}

export const labs: readonly LabEntry[] = [
  {
    slug: 'grpo',
    title: 'GRPO with a verifiable reward',
    summary: 'Start from an imperfect SFT checkpoint and train it with GRPO on 2-digit addition: sample groups, score them, and watch held-out accuracy climb.',
    chapter: 'grpo',
  },
  {
    slug: 'ppo',
    title: 'PPO in a grid world',
    summary: 'An actor-critic learns to walk round the lava to the goal with clipped policy updates and GAE; then break it with no clipping or a learning rate that is too high.',
    chapter: 'ppo',
  },
  {
    slug: 'dpo',
    title: 'DPO on preference pairs',
    summary: 'Pairs of a correct and an incorrect answer sampled from the SFT model, trained against a frozen reference: watch the implicit rewards, the margins and held-out accuracy.',
    chapter: 'dpo',
  },
];

/** Labs the course plans, shown on the labs index so readers know what is coming. */
export const plannedLabs: readonly Omit<LabEntry, 'slug'>[] = [];
