/** The SFT lab's claims: SFT from the untrained model, and what chapter 2 says of LoRA's presets. */
import { evalAt, last, pct, trains } from './history';
import { checkByPrediction, throughStep } from './predict';
import type { Claim, Prediction } from './types';

/** The lab's runs on subtraction from the addition checkpoint: 300 steps, addition (the old task) evaluated at 100 and 300. */
const newTask = (preset: string) => ({ trainer: 'sft', preset, steps: 300, evalEvery: 100 }) as const;

const forgets: Prediction = {
  presets: ['lora_r4', 'lora_r1', 'full_ft'],
  question: 'Fine-tuning the addition model on subtraction alone, for 300 steps: its accuracy on addition (eval/old_task_accuracy) will',
  choices: [
    { id: 'keep', label: 'stay well above 0: LoRA changes too little to forget' },
    { id: 'forget', label: 'fall to almost 0 (at most 2% at the end), whatever the method' },
  ],
  claimed: 'forget',
  reads: ['eval/old_task_accuracy'],
  steps: 300,
  seeds: [0],
  why: 'Nothing in the subtraction loss protects addition: every step moves the model towards the new task’s answers and nothing shows it what to keep. LoRA limits each matrix to r new directions, which in larger models trades some learning for less forgetting, but at this scale even rank 1 over 300 steps overwrites the sums; only replaying addition examples (full_ft_replay) keeps them.',
  section: { file: '02-sft-lora.mdx', chapter: 'sft-lora', heading: 'Catastrophic forgetting', anchor: 'catastrophic-forgetting' },
  verdict: (whole) => {
    const run = throughStep(whole, 300);
    const [at100, end] = [evalAt(run, 100)['eval/old_task_accuracy'], evalAt(run, 300)['eval/old_task_accuracy']];
    return { held: at100 <= 0.05 && end <= 0.02, measured: `addition ${pct(evalAt(run, 0)['eval/old_task_accuracy'])} before, ${pct(at100)} at step 100, ${pct(end)} at step 300` };
  },
  cases: ({ full, r1, r4 }) => [
    { label: 'full_ft', run: full },
    { label: 'lora_r1', run: r1 },
    { label: 'lora_r4', run: r4 },
  ],
};

export const claims: readonly Claim[] = [
  {
    id: 'sft-from-base-learns',
    text: 'SFT of the untrained model on addition, full fine-tuning with the defaults, lifts held-out accuracy from 0 within 200 steps.',
    where: 'sft preset default',
    runs: { run: { trainer: 'sft', steps: 200, evalEvery: 200 } },
    check: ({ run }) => {
      const [a0, a1] = [evalAt(run, 0)['eval/accuracy'], last(run)['eval/accuracy']];
      return { holds: a0 < 0.02 && a1 > 0.3, figure: `${pct(a0)} → ${pct(a1)} after 200 steps` };
    },
  },
  {
    id: 'lora-forgets-without-replay',
    text: 'Every method forgets addition when it learns subtraction without replay: full fine-tuning, LoRA at rank 1 and at rank 4 are at most 5% on addition by step 100 and at most 2% at step 300.',
    where: 'sft presets full_ft, lora_r1, lora_r4; chapter 2',
    runs: { full: newTask('full_ft'), r1: newTask('lora_r1'), r4: newTask('lora_r4') },
    prediction: forgets,
    check: checkByPrediction(forgets),
  },
  {
    id: 'lora-small-rank-close-to-full',
    text: 'LoRA at rank 4 ends within 10 points of full fine-tuning on subtraction with 15% of its trainable parameters, rank 1 far behind; every method forgets addition unless old data is replayed.',
    where: 'sft presets lora_r1, lora_r4, full_ft, full_ft_replay; chapter 2',
    runs: {
      full: { trainer: 'sft', preset: 'full_ft', steps: 300, evalEvery: 100 },
      r1: { trainer: 'sft', preset: 'lora_r1', steps: 300, evalEvery: 100 },
      r4: { trainer: 'sft', preset: 'lora_r4', steps: 300, evalEvery: 100 },
      replay: { trainer: 'sft', preset: 'full_ft_replay', steps: 300, evalEvery: 100 },
    },
    check: ({ full, r1, r4, replay }) => {
      const [f1, one, l1, rp] = [last(full), last(r1), last(r4), last(replay)];
      const share = l1.trainable_params / f1.trainable_params;
      return {
        holds:
          f1['eval/accuracy'] - l1['eval/accuracy'] < 0.1 && one['eval/accuracy'] < l1['eval/accuracy'] - 0.3 && share < 0.16 &&
          [full, r1, r4].every((h) => forgets.verdict(h).held) &&
          rp['eval/old_task_accuracy'] > 0.6,
        figure: `r = 4 trains ${pct(share)} of the parameters; subtraction ${pct(f1['eval/accuracy'])} (full), ${pct(l1['eval/accuracy'])} (r = 4), ${pct(one['eval/accuracy'])} (r = 1); addition at step 100 ${[full, r4, r1].map((h) => pct(evalAt(h, 100)['eval/old_task_accuracy'])).join(' / ')} (full / r = 4 / r = 1), at the end ${pct(f1['eval/old_task_accuracy'])} (full), ${pct(l1['eval/old_task_accuracy'])} (r = 4), ${pct(one['eval/old_task_accuracy'])} (r = 1), ${pct(rp['eval/old_task_accuracy'])} (full with replay)`,
      };
    },
  },
  {
    id: 'lora-rank-and-scale',
    text: 'With α fixed, rank 16 (α/r = 0.5) is not slower than rank 4 (α/r = 2) at step 100; rsLoRA (α/√r = 2) at rank 16 is faster still.',
    where: 'sft presets lora_r4, lora_r16, lora_r16_rslora; chapter 2',
    runs: {
      r4: { trainer: 'sft', preset: 'lora_r4', steps: 300, evalEvery: 100 },
      // Only step 100 is read: these stop there (r4 is the run the claim above made, from its cache).
      r16: { trainer: 'sft', preset: 'lora_r16', steps: 100, evalEvery: 100 },
      rs16: { trainer: 'sft', preset: 'lora_r16_rslora', steps: 100, evalEvery: 100 },
    },
    check: ({ r4, r16, rs16 }) => {
      const a = [r4, r16, rs16].map((h) => evalAt(h, 100)['eval/accuracy']);
      return { holds: a[1] >= a[0] && a[2] > a[1], figure: `subtraction at step 100: ${pct(a[0])} (r = 4), ${pct(a[1])} (r = 16), ${pct(a[2])} (r = 16, rsLoRA)` };
    },
  },
];
