/**
 * The vision lab's claims: its presets, chapter 10's perception section and chapter 1's Perception row, whose
 * sentences they rebuild from their runs.
 */
import { VISION_GRPO_STEPS, VISION_SFT } from '@/lib/train/vision-config';
import { evalAt, last, pct, SEEDS } from './history';
import { printedFigure, proseList, prosePct, prosePoints, proseRange } from './prose';
import { checkByPrediction, perSeed } from './predict';
import type { Claim, ClaimRun, Prediction } from './types';

/** The default: GRPO from the shipped SFT checkpoint (step 0 evaluates the checkpoint itself), every 25 steps as the lab does. */
const vision = (preset: string, seed: number): ClaimRun => ({ trainer: 'vision', preset, overrides: { seed }, steps: VISION_GRPO_STEPS, evalEvery: 25 });
/** The presets that build their own model: SFT_STEPS of SFT, then GRPO; evaluated at the end of SFT too. */
const SFT_STEPS = VISION_SFT.steps;
const FROM_SCRATCH_STEPS = 1600;
const fromBase = (preset: string, seed: number, steps = FROM_SCRATCH_STEPS, evalEvery = 200): ClaimRun => ({ trainer: 'vision', preset, overrides: { seed }, steps, evalEvery });
/** text_only: the default's training from base, the checkpoint's SFT then the default's GRPO steps, without the picture. */
const textOnly = (seed: number) => fromBase('text_only', seed, SFT_STEPS + VISION_GRPO_STEPS, 50);
/** How much the default's GRPO lifts held-out accuracy over the checkpoint, on each seed (measured: see the preset). */
const LIFT = 0.05;
/** Chapter 10's perception section and chapter 1's Perception row, rebuilt from the vision claims' runs. */
const VISION_CHAPTER = '10-beyond-the-calculator.mdx';

const grpoLifts: Prediction = {
  presets: ['default'],
  question: `The run starts from an SFT checkpoint (${SFT_STEPS} steps on pictures with their answers). After ${VISION_GRPO_STEPS} GRPO steps, held-out accuracy against the checkpoint's will be`,
  choices: [
    { id: 'up', label: `at least ${LIFT * 100} points higher` },
    { id: 'same', label: `within ${LIFT * 100} points` },
    { id: 'down', label: 'lower' },
  ],
  claimed: 'up',
  reads: ['eval/accuracy'],
  steps: VISION_GRPO_STEPS,
  seeds: SEEDS,
  why: 'SFT copies the demonstrated answers token by token and stops where its steps end. GRPO then samples several answers per picture and the verifier scores each against the picture, so within every group the answers that match it gain on the guesses: the reward itself asks the policy to read the image.',
  section: { file: VISION_CHAPTER, chapter: 'beyond-the-calculator', heading: 'What the vision lab measured', anchor: 'what-the-vision-lab-measured' },
  verdict: (run) => {
    const [start, end] = [evalAt(run, 0)['eval/accuracy'], evalAt(run, VISION_GRPO_STEPS)['eval/accuracy']];
    return { held: end - start >= LIFT, measured: `held-out accuracy ${pct(start)} from the SFT checkpoint (step 0) → ${pct(end)} after GRPO (step ${VISION_GRPO_STEPS})` };
  },
  cases: perSeed('seed', SEEDS),
};

export const claims: readonly Claim[] = [
  {
    id: 'vision-grpo-lifts',
    text: `The vision lab: from the SFT checkpoint, ${VISION_GRPO_STEPS} GRPO steps with a correctness reward lift held-out accuracy at least ${LIFT * 100} points above the checkpoint's, on each of seeds 0, 1 and 2.`,
    where: 'vision preset default; the vision lab; the perception section',
    runs: Object.fromEntries(SEEDS.map((seed) => [`seed${seed}`, vision('default', seed)])),
    prediction: grpoLifts,
    check: checkByPrediction(grpoLifts),
  },
  {
    id: 'vision-grpo-lifts-printed',
    text: 'Chapter 10’s perception section and chapter 1’s Perception row print the default runs’ held-out accuracy after SFT and after GRPO as measured on seeds 0, 1 and 2.',
    where: 'vision preset default; the perception section; chapter 1',
    runs: Object.fromEntries(SEEDS.map((seed) => [`seed${seed}`, vision('default', seed)])),
    check: (h, context) => {
      const [start, end] = [SEEDS.map((s) => evalAt(h[`seed${s}`], 0)['eval/accuracy']), SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy'])];
      const unprinted = [
        ...[
          `| \`default\`, the SFT checkpoint (${SFT_STEPS} SFT steps, GRPO's start) | ${prosePct(start[0])}% |`,
          `| \`default\`, after ${VISION_GRPO_STEPS} GRPO steps | ${prosePct(end[0])}% |`,
          `Over seeds 0, 1 and 2, GRPO lifts held-out accuracy from the checkpoint's ${prosePct(start[0])}% to ${proseList(end.map((x) => `${prosePct(x)}%`))}: ${proseList(SEEDS.map((_, i) => prosePoints(end[i], start[i])))} points`,
        ].map((x) => printedFigure(context, VISION_CHAPTER, x)),
        printedFigure(context, '01-agentic-rl.mdx', `Held-out accuracy ${prosePct(start[0])}% → ${prosePct(end[0])}% after GRPO from SFT (seed 0)`),
        printedFigure(context, VISION_CHAPTER, `lifts held-out accuracy ${proseRange(SEEDS.map((_, i) => end[i] - start[i]))} points over its SFT start (${prosePct(start[0])}% → ${prosePct(end[0])}% on seed 0)`),
      ].join('');
      return {
        holds: unprinted === '',
        figure: `${unprinted}held-out accuracy from the checkpoint → after GRPO: ${SEEDS.map((s, i) => `seed ${s} ${pct(start[i])} → ${pct(end[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-from-scratch-lifts',
    text: `The vision lab's from_scratch preset (${SFT_STEPS} SFT steps from an untrained model, then ${FROM_SCRATCH_STEPS - SFT_STEPS} GRPO steps): GRPO lifts held-out accuracy at least 10 points above where its SFT phase left it, on each of seeds 0, 1 and 2.`,
    where: 'vision preset from_scratch; the perception section',
    runs: Object.fromEntries(SEEDS.map((seed) => [`seed${seed}`, fromBase('from_scratch', seed)])),
    check: (h) => {
      const [sftEnd, end] = [SEEDS.map((s) => evalAt(h[`seed${s}`], SFT_STEPS)['eval/accuracy']), SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy'])];
      return {
        holds: SEEDS.every((_, i) => end[i] - sftEnd[i] >= 0.1),
        figure: `held-out accuracy after SFT (step ${SFT_STEPS}) → after GRPO: ${SEEDS.map((s, i) => `seed ${s} ${pct(sftEnd[i])} → ${pct(end[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-sees',
    text: 'The vision lab: the default run ends at least 20 points above text_only (the same model, questions and training from an untrained model, with no picture), on each of seeds 0, 1 and 2: the model really looks.',
    where: 'vision presets default, text_only; the vision lab; the perception section',
    runs: Object.fromEntries(SEEDS.flatMap((seed) => [[`seed${seed}`, vision('default', seed)], [`blind${seed}`, textOnly(seed)]])),
    check: (h, context) => {
      const [seeing, blind] = [SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy']), SEEDS.map((s) => last(h[`blind${s}`])['eval/accuracy'])];
      const unprinted = [
        printedFigure(context, VISION_CHAPTER, `| \`text_only\`, after the same training | ${prosePct(blind[0])}% |`),
        printedFigure(context, VISION_CHAPTER, `\`default\` ends ${proseList(SEEDS.map((_, i) => prosePoints(seeing[i], blind[i])))} points above \`text_only\`, which reaches ${proseList(blind.map((x) => `${prosePct(x)}%`))}`),
        // The takeaway's range over the seeds, written as the section's figures are.
        printedFigure(context, VISION_CHAPTER, `the picture is worth ${proseRange(SEEDS.map((_, i) => seeing[i] - blind[i]))} points over \`text_only\`, the same model without it (${prosePct(Math.min(...blind))}% to ${prosePct(Math.max(...blind))}%)`),
        printedFigure(context, '01-agentic-rl.mdx', `${prosePct(blind[0])}% with the same questions and no picture`),
      ].join('');
      return {
        holds: unprinted === '' && SEEDS.every((_, i) => seeing[i] - blind[i] >= 0.2),
        figure: `${unprinted}default vs text_only: ${SEEDS.map((s, i) => `seed ${s} ${pct(seeing[i])} vs ${pct(blind[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-counting',
    text: 'The vision lab’s counting preset (5 × 5 pictures, counting questions only): its run ends at least 10 points above the same preset without the picture (seed 0).',
    where: 'vision preset counting; the vision lab',
    runs: { counting: fromBase('counting', 0), blind: { ...fromBase('counting', 0), overrides: { seed: 0, use_image: false } } },
    check: ({ counting, blind }, context) => {
      const [c, b] = [last(counting), last(blind)];
      const unprinted = [
        `After SFT the model answers ${prosePct(evalAt(counting, SFT_STEPS)['eval/accuracy'])}% of its held-out counting questions, GRPO moves that to ${prosePct(c['eval/accuracy'])}%, and without the picture the same preset reaches ${prosePct(b['eval/accuracy'])}%`,
        `the count of all shapes is right ${prosePct(c['eval/accuracy_count_all'])}% of the time, while counts of one colour or one shape stay at ${prosePct(c['eval/accuracy_count_colour'])}% and ${prosePct(c['eval/accuracy_count_shape'])}%`,
      ].map((x) => printedFigure(context, VISION_CHAPTER, x)).join('');
      return {
        holds: unprinted === '' && c['eval/accuracy'] - b['eval/accuracy'] >= 0.1,
        figure: `${unprinted}counting ${pct(c['eval/accuracy'])} (after SFT ${pct(evalAt(counting, SFT_STEPS)['eval/accuracy'])}; colour ${pct(c['eval/accuracy_count_colour'])}, shape ${pct(c['eval/accuracy_count_shape'])}, all ${pct(c['eval/accuracy_count_all'])}) vs without the picture ${pct(b['eval/accuracy'])}`,
      };
    },
  },
];
