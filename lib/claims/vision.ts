/**
 * The vision lab's claims: its presets, chapter 10's perception section and chapter 1's Perception row, whose
 * sentences they rebuild from their runs.
 */
import { evalAt, last, pct, SEEDS } from './history';
import { printedFigure, proseList, prosePct, prosePoints, proseRange } from './prose';
import { checkByPrediction, perSeed } from './predict';
import type { Claim, ClaimRun, Prediction } from './types';

/** A vision run as the lab runs it (1,600 steps, SFT's 800 included), evaluated every 200 steps, so at the end of SFT too. */
const VISION_SFT_STEPS = 800;
const VISION_STEPS = 1600;
const vision = (preset: string, seed: number): ClaimRun => ({ trainer: 'vision', preset, overrides: { seed }, steps: VISION_STEPS, evalEvery: 200 });
/** Chapter 10's perception section and chapter 1's Perception row, rebuilt from the vision claims' runs. */
const VISION_CHAPTER = '10-beyond-the-calculator.mdx';

const grpoLifts: Prediction = {
  presets: ['default'],
  question: 'The first 800 steps are SFT on pictures with their answers. After 800 GRPO steps more, held-out accuracy against where SFT left it will be',
  choices: [
    { id: 'up', label: 'at least 10 points higher' },
    { id: 'same', label: 'within 10 points' },
    { id: 'down', label: 'lower' },
  ],
  claimed: 'up',
  reads: ['eval/accuracy'],
  steps: VISION_STEPS,
  seeds: SEEDS,
  why: 'SFT copies the demonstrated answers token by token and stops where its 800 steps end. GRPO then samples several answers per picture and the verifier scores each against the picture, so within every group the answers that match it gain on the guesses: the reward itself asks the policy to read the image.',
  section: { file: VISION_CHAPTER, chapter: 'beyond-the-calculator', heading: 'What the vision lab measured', anchor: 'what-the-vision-lab-measured' },
  verdict: (run) => {
    const [sftEnd, end] = [evalAt(run, VISION_SFT_STEPS)['eval/accuracy'], evalAt(run, VISION_STEPS)['eval/accuracy']];
    return { held: end - sftEnd >= 0.1, measured: `held-out accuracy ${pct(sftEnd)} after SFT (step ${VISION_SFT_STEPS}) → ${pct(end)} after GRPO (step ${VISION_STEPS})` };
  },
  cases: perSeed('seed', SEEDS),
};

export const claims: readonly Claim[] = [
  {
    id: 'vision-grpo-lifts',
    text: 'The vision lab: GRPO with a correctness reward lifts held-out accuracy at least 10 points above where its SFT phase left it (step 800), on each of seeds 0, 1 and 2.',
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
      const [sftEnd, end] = [SEEDS.map((s) => evalAt(h[`seed${s}`], VISION_SFT_STEPS)['eval/accuracy']), SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy'])];
      const unprinted = [
        ...[
          `| \`default\`, after ${VISION_SFT_STEPS} SFT steps (GRPO's start) | ${prosePct(sftEnd[0])}% |`,
          `| \`default\`, after ${VISION_STEPS - VISION_SFT_STEPS} GRPO steps more | ${prosePct(end[0])}% |`,
          `Over seeds 0, 1 and 2, GRPO lifts held-out accuracy from ${proseList(sftEnd.map((x) => `${prosePct(x)}%`))} after SFT to ${proseList(end.map((x) => `${prosePct(x)}%`))}: ${proseList(SEEDS.map((_, i) => prosePoints(end[i], sftEnd[i])))} points`,
        ].map((x) => printedFigure(context, VISION_CHAPTER, x)),
        printedFigure(context, '01-agentic-rl.mdx', `Held-out accuracy ${prosePct(sftEnd[0])}% → ${prosePct(end[0])}% after GRPO from SFT (seed 0)`),
        printedFigure(context, VISION_CHAPTER, `lifts held-out accuracy ${proseRange(SEEDS.map((_, i) => end[i] - sftEnd[i]))} points over its SFT start (${prosePct(sftEnd[0])}% → ${prosePct(end[0])}% on seed 0)`),
      ].join('');
      return {
        holds: unprinted === '',
        figure: `${unprinted}held-out accuracy after SFT → after GRPO: ${SEEDS.map((s, i) => `seed ${s} ${pct(sftEnd[i])} → ${pct(end[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-sees',
    text: 'The vision lab: the default run ends at least 20 points above text_only (the same model and questions with no picture), on each of seeds 0, 1 and 2: the model really looks.',
    where: 'vision presets default, text_only; the vision lab; the perception section',
    runs: Object.fromEntries(SEEDS.flatMap((seed) => [[`seed${seed}`, vision('default', seed)], [`blind${seed}`, vision('text_only', seed)]])),
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
    runs: { counting: vision('counting', 0), blind: { ...vision('counting', 0), overrides: { seed: 0, use_image: false } } },
    check: ({ counting, blind }, context) => {
      const [c, b] = [last(counting), last(blind)];
      const unprinted = [
        `After SFT the model answers ${prosePct(evalAt(counting, VISION_SFT_STEPS)['eval/accuracy'])}% of its held-out counting questions, GRPO moves that to ${prosePct(c['eval/accuracy'])}%, and without the picture the same preset reaches ${prosePct(b['eval/accuracy'])}%`,
        `the count of all shapes is right ${prosePct(c['eval/accuracy_count_all'])}% of the time, while counts of one colour or one shape stay at ${prosePct(c['eval/accuracy_count_colour'])}% and ${prosePct(c['eval/accuracy_count_shape'])}%`,
      ].map((x) => printedFigure(context, VISION_CHAPTER, x)).join('');
      return {
        holds: unprinted === '' && c['eval/accuracy'] - b['eval/accuracy'] >= 0.1,
        figure: `${unprinted}counting ${pct(c['eval/accuracy'])} (after SFT ${pct(evalAt(counting, VISION_SFT_STEPS)['eval/accuracy'])}; colour ${pct(c['eval/accuracy_count_colour'])}, shape ${pct(c['eval/accuracy_count_shape'])}, all ${pct(c['eval/accuracy_count_all'])}) vs without the picture ${pct(b['eval/accuracy'])}`,
      };
    },
  },
];
