/**
 * The learning path (/path/): the course plan's three stages, foundation, advanced and expert, each mapped to the
 * chapters, quizzes, labs and exercises it asks for. Data only; app/path/page.tsx renders it, and a content test
 * checks every chapter, lab, exercise and anchor here exists (and that every chapter and exercise has a stage).
 */
import { exercises, type ExerciseId } from './exercises';

export interface PathLink {
  label: string;
  href: string;
  /** What to do there, in a sentence. */
  task: string;
}

export interface Stage {
  id: 'foundation' | 'advanced' | 'expert';
  title: string;
  summary: string;
  /** Chapter slugs: read them (their quizzes count towards the stage). */
  chapters: string[];
  /** Lab slugs, with what to run. */
  labs: { slug: string; task: string }[];
  exercises: ExerciseId[];
  /** Features of the labs and the course beyond the defaults (the advanced stage's; the expert stage's lab presets). */
  features: PathLink[];
}

const exercisesOf = (stage: 'foundation' | 'expert') => exercises.filter((e) => e.stage === stage).map((e) => e.id);

export const stages: Stage[] = [
  {
    id: 'foundation',
    title: 'Foundation',
    summary:
      'The language model as a policy, supervised fine-tuning with LoRA, and the three algorithms everything else builds on: PPO, DPO and GRPO. Read, answer the quizzes, run each lab on its default preset, and write the core pieces yourself.',
    chapters: ['agentic-rl', 'sft-lora', 'ppo', 'dpo', 'grpo'],
    labs: [
      { slug: 'grpo', task: 'Train its default preset to the end and watch held-out accuracy climb.' },
      { slug: 'ppo', task: 'Train its default preset, then break it with no clipping.' },
      { slug: 'dpo', task: 'Train its default preset and read the implicit rewards and margins.' },
    ],
    exercises: exercisesOf('foundation'),
    features: [],
  },
  {
    id: 'advanced',
    title: 'Advanced',
    summary:
      'Beyond the defaults: the SFT → GRPO pipeline end to end, rewards and data of your own, sweeps over seeds and settings, and taking a recipe that works here to a real GPU with TRL.',
    chapters: ['pipeline'],
    labs: [
      { slug: 'grpo', task: 'Write your own reward function and train on a dataset of your own.' },
      { slug: 'lora', task: 'Compare LoRA ranks with full fine-tuning: accuracy, forgetting and memory.' },
    ],
    exercises: [],
    features: [
      { label: 'Writing your own reward', href: '/chapters/grpo/#writing-your-own-reward', task: 'A reward function of your own, run in the GRPO lab.' },
      { label: 'Custom datasets in the GRPO lab', href: '/labs/grpo/', task: 'Train on problems of your own instead of the built-in addition set.' },
      { label: 'Sweeps and seed variance', href: '/chapters/pipeline/#sweeps-and-seed-variance', task: 'Run a setting over several seeds before believing a difference.' },
      { label: 'Take it to a real GPU', href: '/chapters/pipeline/#take-it-to-a-real-gpu', task: 'Export a lab run as a TRL script and its configs.' },
    ],
  },
  {
    id: 'expert',
    title: 'Expert',
    summary:
      'How training is spread over many GPUs, the 2025–26 research (DAPO, Dr. GRPO, GSPO and more), agents that call tools over several turns, the data that trains them, and agents that remember, try again, teach themselves, work in teams and read pictures. The remaining exercises ask for the newer losses.',
    chapters: ['distributed-training', 'research-2025', 'agent-data', 'beyond-the-calculator'],
    labs: [
      { slug: 'agent', task: 'Train the calculator agent and read which tokens it is trained on; then the memory and reflect presets.' },
      { slug: 'self-improve', task: 'Run the default preset, then majority and sft_only: compare 3-digit accuracy and the kept samples’ precision.' },
      { slug: 'team', task: 'Train a sender and a receiver on one reward, then blank the channel and compare.' },
      { slug: 'vision', task: 'Train the default preset and look where its answers attend; then compare it with text_only, the same model with no picture.' },
    ],
    exercises: exercisesOf('expert'),
    features: [
      {
        label: 'Memory in the agent lab',
        href: '/labs/agent/?preset=memory',
        task: 'Train the memory preset, then memory_no_tool: held-out accuracy with a memory tool against the attention window alone (chapter 10’s section on memory).',
      },
      {
        label: 'Reflection in the agent lab',
        href: '/labs/agent/?preset=reflect',
        task: 'Train the reflect preset and compare first-try accuracy with the fix rate: what GRPO makes of a second try after “wrong” (chapter 10’s section on reflection).',
      },
    ],
  },
];
