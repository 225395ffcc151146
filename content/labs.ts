/**
 * The labs registry. Each entry here gets its page at /labs/<slug>/ (app/labs/[slug]/page.tsx), a card on the labs
 * index and a sitemap line, and can be embedded in a chapter with <LabEmbed lab="<slug>" />. Its UI is the default
 * export of labs/<slug>/Lab.tsx, which labs/LabLoader.tsx loads as a chunk of its own only when the lab is opened
 * (pages read this file on the server, so it holds data only: an import() here would attach every lab's code to
 * every page that lists the labs). Its trainer (schema, presets, checkpoint) comes from lib/spec/registry.ts.
 */
import type { TrainerName } from '@/lib/spec/registry';
import type { LabVariant } from './lab-variants';

export type { LabFace, LabVariant } from './lab-variants';

export interface LabEntry {
  slug: string;
  /** The title, summary and chapter under its presets that no variant covers (its first preset's, on every card). */
  title: string;
  summary: string;
  /** The chapter that teaches what the lab trains. */
  chapter: string;
  trainer: TrainerName;
  /** The presets its menu offers, the first selected at the start; by default all of its trainer's. */
  presets?: readonly string[];
  /** What its max_steps counts, where not steps ("rounds": one step of the self-improvement trainer is a round). */
  stepUnit?: string;
  /**
   * Presets that train something the title does not describe, with the words their page shows instead (it follows
   * the preset chosen in the lab's menu) and a link of their own on the lab's card.
   */
  variants?: readonly LabVariant[];
}

export const labs = [
  {
    slug: 'agent',
    title: 'An agent learns to use a calculator',
    summary: 'A tiny model answers 3-digit products over several turns: it may call a calculator, read its answer, then reply. GRPO teaches it to call the calculator on every problem (the episodes that call earn more), to plan two calls when a problem has two operations (multi_step), and to call again after a failed call (retry); the trajectory viewer shows every call and reply, and which tokens it is trained on.',
    chapter: 'agentic-rl',
    trainer: 'agent',
    variants: [
      {
        presets: ['memory', 'memory_no_tool'],
        title: 'An agent learns to keep facts in a memory tool',
        summary:
          'Two facts ("a=37 b=52") have left the model’s 12-token attention window by the time the question ("b?") comes. The policy may write "[b=52]" to a memory tool while it still sees the fact, and read "[b]" back when asked; GRPO rewards only the right answer. Watch held-out accuracy and memory use climb from a checkpoint that never uses memory, and memory_no_tool, the same window without the tool, stay at a guess. The trajectory viewer shows each write, the question and the memory’s reply.',
        chapter: 'beyond-the-calculator',
        section: 'memory-what-the-window-drops',
      },
      {
        presets: ['reflect', 'reflect_feedback'],
        title: 'An agent gets a second try after “wrong”',
        summary:
          'A wrong final answer gets a bare "?" from the environment and one more try; a right last answer earns 1, and each calculator call costs 0.5. Watch first-try accuracy, accuracy after the second try and the fix rate (wrong first, right second) to see which habit GRPO picks: answering first and using the verdict, or calling the calculator at once. Under reflect it calls at once and the verdict goes unused; under reflect_feedback the calculator answers only after the "?", and the policy learns to use its second try. The trajectory viewer marks the first try, the "?" and the second try.',
        chapter: 'beyond-the-calculator',
        section: 'reflection-trying-again-after-wrong',
      },
    ],
  },
  {
    slug: 'lora',
    title: 'LoRA: what low rank buys and costs',
    summary: 'Fine-tune the addition model on subtraction with full fine-tuning or LoRA at rank 1 to 16: compare accuracy, forgetting, trainable parameters and optimizer memory, see the rank of each update, merge the adapter and export it.',
    chapter: 'sft-lora',
    trainer: 'sft',
    // The SFT trainer's other presets train other tasks (addition from the untrained model): not this lab's.
    presets: ['lora_r4', 'lora_r1', 'lora_r16', 'lora_r16_rslora', 'full_ft', 'full_ft_replay'],
  },
  {
    slug: 'grpo',
    title: 'GRPO with a verifiable reward',
    summary: 'Start from an imperfect SFT checkpoint and train it with GRPO on 2-digit addition: sample groups, score them, and watch held-out accuracy climb.',
    chapter: 'grpo',
    trainer: 'grpo',
  },
  {
    slug: 'ppo',
    title: 'PPO in a grid world',
    summary: 'An actor-critic learns to walk round the lava to the goal with clipped policy updates and GAE; then break it with no clipping or a learning rate that is too high.',
    chapter: 'ppo',
    trainer: 'ppo',
  },
  {
    slug: 'dpo',
    title: 'DPO on preference pairs',
    summary: 'Pairs of a correct and an incorrect answer sampled from the SFT model, trained against a frozen reference: watch the implicit rewards, the margins and held-out accuracy.',
    chapter: 'dpo',
    trainer: 'dpo',
  },
  {
    slug: 'self-improve',
    title: 'Self-improvement: a model teaches itself longer sums',
    summary: 'Demonstrations show sums of up to 2 digits. Each round the model answers longer ones, keeps what a verifier (or its own majority vote) accepts and fine-tunes on it: watch accuracy at each length round by round, and which wrong answers a majority vote lets through.',
    chapter: 'beyond-the-calculator',
    trainer: 'self_improve',
    stepUnit: 'rounds',
  },
  {
    slug: 'team',
    title: 'A team of two agents learns to talk',
    summary: 'Two policies share one reward: a sender knows which of four positions is the target, a receiver sees the board, and only a short message passes between them. GRPO per role turns the untrained sender’s babble into a protocol the receiver reads; blank the channel, freeze the sender, or let the receiver rush ahead and watch the team fail. Both roles’ turns side by side, and a table of what each message has come to mean.',
    chapter: 'beyond-the-calculator',
    trainer: 'team',
  },
  {
    slug: 'vision',
    title: 'A policy that sees: counting shapes in pictures',
    summary: 'A tiny vision-language model: each picture, a grid of coloured shapes, becomes image tokens in front of the question. GRPO with a reward for the right answer, from a shipped SFT checkpoint on described pictures (from_scratch runs that SFT phase live first): see each picture with the policy’s answers marked right and wrong, and where its answer looked. Train text_only, the same model with no picture, for the floor that shows it really looks.',
    chapter: 'beyond-the-calculator',
    trainer: 'vision',
  },
] as const satisfies readonly LabEntry[];

/** A link that opens a lab on one of its presets. */
export const presetLink = (lab: LabEntry, preset: string) => `/labs/${lab.slug}/?preset=${encodeURIComponent(preset)}`;

/** The lab called `slug`, or undefined. */
export function labNamed(slug: string): LabEntry | undefined {
  return labs.find((lab) => lab.slug === slug);
}

/** The presets a lab's menu offers, in order (its trainer's `presets` table gives all of them). */
export function labPresets(lab: LabEntry, trainerPresets: Readonly<Record<string, unknown>>): string[] {
  return lab.presets ? [...lab.presets] : Object.keys(trainerPresets);
}
