import { sftOrBase, type Presets, type Schema } from './config';

/**
 * Self-improvement by expert iteration (STaR, Zelikman et al. 2022; rejection-sampling fine-tuning, Yuan et al. 2023;
 * Lee et al. 2025 for length): each round samples num_generations answers per problem one difficulty past what the
 * model was shown, keeps those the filter accepts, and fine-tunes on them mixed with what came before. TRL has no
 * such trainer; each round's fine-tuning is its SFTTrainer on the kept samples, so its fields keep SFTConfig's names.
 * One step of this trainer is one round: max_steps counts rounds, and round 0 (the first step) is plain SFT on the
 * human-written demonstrations: trained ahead of time and loaded from a checkpoint by default (init_from 'sft'), or in
 * the run itself (init_from 'base').
 */
export const selfImproveSchema = {
  filter: { kind: 'choice', default: 'verifier', choices: ['verifier', 'majority', 'none'] as const, reason: '"verifier" keeps the samples whose final answer is right (STaR’s rationalization-free filter); "majority" keeps the samples that agree with a strict majority of their problem’s samples, with no verifier (self-consistency); "none" keeps every sample.' },
  demo_fraction: { kind: 'number', default: 0.5, min: 0, max: 1, reason: 'Half of each fine-tuning batch replays the human-written demonstrations, half the kept samples, so the short problems are not forgotten; 1 trains on demonstrations alone (the sft_only baseline).' },
  num_generations: { kind: 'number', default: 4, min: 1, max: 16, integer: true, reason: 'Samples per problem (TRL’s name): 4 gives a majority vote something to count and the verifier several tries.' },
  num_prompts: { kind: 'number', default: 1024, min: 1, max: 4096, integer: true, reason: 'Problems sampled per round: the kept samples are all the round learns from, and 1,024 × 4 samples take a few seconds (with 512, 3-digit accuracy climbed half as fast in a trial).' },
  temperature: { kind: 'number', default: 0.7, min: 0, max: 2, reason: 'Below 1: at this length one wrong column spoils the answer, so sampling near the mode finds more right ones.' },
  demonstration_digits: { kind: 'number', default: 2, min: 1, max: 5, integer: true, reason: 'The human-written demonstrations are sums whose digits span at most 2 columns (47 + 85, or 470 + 850); every wider sum is one the model must teach itself.' },
  target_digits: { kind: 'number', default: 3, min: 2, max: 6, integer: true, reason: 'eval/accuracy_target is measured on full 3-digit sums, which no demonstration contains; the model is sized for them from the start.' },
  rounds_per_difficulty: { kind: 'number', default: 3, min: 1, max: 20, integer: true, reason: 'Three rounds at each difficulty before the next (with a target 2 or more digits past the demonstrations): one round’s right samples are rarely enough to learn a new column from.' },
  init_from: sftOrBase(
    'Round 0 is loaded, not trained: the checkpoint is this trainer’s own round 0 (1,000 steps of SFT on the demonstrations, seed 0; scripts/build-self-improve-checkpoint.ts), so a run spends its time on the rounds that sample. "base": round 0 trains demo_steps steps in the run, from an untrained model (the full_schedule preset).',
    { value: 'base', reason: 'Before round 0 shipped as a checkpoint (2026-12-06) every run trained round 0 itself: an assignment or submission written then, which has no init_from, ran from base.' },
  ),
  demo_steps: { kind: 'number', default: 1000, min: 1, max: 100000, integer: true, reason: 'Round 0 trained in the run (init_from "base"): SFT on the demonstrations until the short sums are learned (95% of held-out 2-column sums right at 1,000 steps of 32). The default loads these same 1,000 steps, done ahead of time.' },
  steps_per_round: { kind: 'number', default: 120, min: 1, max: 100000, integer: true, reason: 'Fine-tuning steps (SFTConfig’s max_steps) in each later round. 120, with round 0 loaded, keeps the default run under 30 s in a browser: over seeds 0–2, 3-digit accuracy ends round 5 at 55.2% on average (49.5% to 58.5%), a gain of 45.7 points over round 0. 200 with round 0 trained in the run (full_schedule) gained 45.5 on average (32 to 54) and ended at 51.7% (35% to 60%).' },
  learning_rate: { kind: 'number', default: 3e-3, min: 0, max: 1, exclusiveMin: true, reason: 'As the SFT lab: a tiny model from scratch tolerates a large step.' },
  per_device_train_batch_size: { kind: 'number', default: 32, min: 1, max: 512, integer: true, reason: 'As the SFT lab.' },
  max_grad_norm: { kind: 'number', default: 1, min: 0, max: 1000, exclusiveMin: true, reason: 'TRL’s default: clip the global gradient norm at 1.' },
  max_steps: { kind: 'number', default: 6, min: 1, max: 100, integer: true, reason: 'Rounds, round 0 included: the demonstrations (loaded, by default), then 5 rounds at 3 digits. The lab card gives the measured time of the whole run in a browser (npm run record:browser-times).' },
  eval_steps: { kind: 'number', default: 1, min: 0, max: 100, integer: true, reason: 'Held-out accuracy at every difficulty after every round.' },
  eval_samples: { kind: 'number', default: 200, min: 10, max: 2000, integer: true, reason: '200 held-out problems per difficulty (fewer for 1-column sums, which have only a few dozen held out): accuracy to about ±3 points.' },
  seed: { kind: 'number', default: 0, min: 0, max: 2 ** 31 - 1, integer: true, reason: 'Same seed, same run, on one backend.' },
} satisfies Schema;

/**
 * The held-out accuracies a run logs after each round, one per difficulty from 1 digit to its target
 * (evaluateCurriculum's names): a lab draws these, and no wider one the run cannot fill.
 */
export function accuracyMetrics(targetDigits: number): string[] {
  return Array.from({ length: targetDigits }, (_, i) => `eval/accuracy_${i + 1}_digits`);
}

export const selfImprovePresets = {
  default: { description: 'Expert iteration with a verifier: round 0 (SFT on the demonstrations) is loaded, then 5 rounds keep only samples with the right answer, and 3-digit accuracy climbs though no demonstration has more than 2 columns.', overrides: {} },
  majority: { description: 'No verifier: of the samples for each 3-digit sum, keep those that agree with most of them. The kept samples’ precision says how many wrong answers the model then learns.', overrides: { filter: 'majority' } },
  sft_only: { description: 'The same fine-tuning steps on the human-written demonstrations alone (up to 2 columns), measured on the same 3-digit sums: what the rounds add beyond more training.', overrides: { demo_fraction: 1 } },
  full_schedule: {
    description:
      'The default’s whole schedule as the lab ran it before round 0 shipped as a checkpoint: round 0 trains 1,000 steps of SFT on the demonstrations from an untrained model in the run (on seed 0 it ends on the very model the default loads), and each later round fine-tunes 200 steps instead of 120. 3-digit accuracy after round 5: 60.0% on seed 0, against the default’s 57.5%; on seeds 1 and 2 each trains its own round 0 (6% and 3% on 3-digit sums, against the checkpoint’s 9.5%) and ends at 60.0% and 35.0%. It took 49.6 s in Chromium on an idle 2-core machine (npm run record:browser-times, 2026-12-06, when it was the default): the time the default saves is this round 0 and 400 fine-tuning steps.',
    overrides: { init_from: 'base', steps_per_round: 200 },
  },
} satisfies Presets<typeof selfImproveSchema>;

/**
 * How the self_improve_sft checkpoint is made (scripts/build-self-improve-checkpoint.ts, wasm): round 0 of this
 * trainer with init_from 'base' and these settings, the schema's defaults, so loading it (init_from 'sft') starts a
 * run where the full schedule's round 0 ends. Runs with other digits must train their own round 0.
 */
export const SELF_IMPROVE_SFT = { demonstration_digits: 2, target_digits: 3, demo_steps: 1000, learning_rate: 3e-3, per_device_train_batch_size: 32, max_grad_norm: 1, seed: 0 } as const;
