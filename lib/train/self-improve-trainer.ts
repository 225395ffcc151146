/**
 * Self-improvement by expert iteration on addition graded by length (lib/tasks/addition-curriculum.ts). Round 0 is
 * SFT on human-written demonstrations of short sums: by default (init_from 'sft') loaded from a checkpoint that is
 * this trainer's own round 0, so the round only evaluates it; with init_from 'base' trained here. Every later round
 * samples num_generations answers to problems one difficulty past the demonstrations, keeps those its filter accepts
 * (a verifier, a majority vote, or nothing), and fine-tunes on them mixed with the demonstrations and every earlier
 * round's kept samples; the difficulty moves on every rounds_per_difficulty rounds. One trainStep is one round
 * (seconds in a browser), so it offers the step
 * loop a pause point between its phases and between its fine-tuning steps: a pause takes effect within a fine-tuning
 * step, or after the sampling or evaluation under way, and the resumed round ends with the numbers of an unpaused one.
 */
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { createRng, type Rng } from '@/lib/random';
import { createAdditionCurriculum, type AdditionCurriculum, type CurriculumProblem } from '@/lib/tasks/addition-curriculum';
import { resolve, type ConfigOf } from './config';
import { checkFitsContext } from './grpo-update';
import { evaluateOnTestSet, referenceCompletions } from './lm-batch';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { sampleGroups } from './on-policy';
import { StepTimer } from './optim';
import type { Metrics, PausePoint } from './run';
import { SELF_IMPROVE_SFT, selfImproveSchema } from './self-improve-config';
import { selfImproveModelConfig } from './self-improve-model';
import { filterSamples, keptPrecision, verified, type SampleFilter } from './self-improve-filter';
import { sftSchema } from './sft-config';
import { sftTrainerOn, type SftSource } from './sft-trainer';

export type SelfImproveConfig = ConfigOf<typeof selfImproveSchema>;

/** One sample of the last round, for the lab's inspector. */
export interface InspectedSample {
  prompt: string;
  answer: string;
  /** The completion as sampled ("12,5 #### 52"). */
  text: string;
  kept: boolean;
  /** Whether its answer is right: what a verifier would say, whatever the filter was. */
  correct: boolean;
}

export interface SelfImproveInspection {
  round: number;
  /** The difficulty the round trained on (digits); round 0: the demonstrations' largest. */
  difficulty: number;
  filter: SampleFilter;
  demonstrationDigits: number;
  targetDigits: number;
  /** Round 0's SFT on the demonstrations: loaded from the checkpoint (init_from 'sft'), or trained in this run; its steps. */
  roundZero: { loaded: boolean; steps: number };
  /** The last round's samples, a few groups of num_generations (none in round 0). */
  samples: InspectedSample[];
  /** Greedy held-out accuracy at each difficulty (index 0 = 1 digit) after every round so far. */
  accuracy: { round: number; byDifficulty: number[] }[];
}

export interface SelfImproveTrainer extends LmTrainer<typeof selfImproveSchema, SelfImproveInspection> {
  readonly config: SelfImproveConfig;
}

/** Outside a TrainingRun (a script, a test) nothing pauses a round. */
const noPausePoint: PausePoint = async () => undefined;

/** What the lab's inspector shows of a round: this many problems' groups. */
const INSPECTED_GROUPS = 12;

/** The difficulty round r trains on: the demonstrations' for round 0, then one more digit every rounds_per_difficulty rounds. */
export function roundDifficulty(round: number, config: Pick<SelfImproveConfig, 'demonstration_digits' | 'target_digits' | 'rounds_per_difficulty'>): number {
  if (round === 0) return config.demonstration_digits;
  return Math.min(config.target_digits, config.demonstration_digits + Math.ceil(round / config.rounds_per_difficulty));
}

/**
 * Greedy held-out accuracy at every difficulty (eval/accuracy_<d>_digits) and at the full width
 * (eval/accuracy_target): the trainer's evaluation, and the grader's on its own problems.
 */
export async function evaluateCurriculum(model: TinyLM, curriculum: AdditionCurriculum, problemsAt: (difficulty: number) => CurriculumProblem[]): Promise<Metrics> {
  const metrics: Metrics = {};
  for (let d = 1; d <= curriculum.width; d++) {
    metrics[`eval/accuracy_${d}_digits`] = (await evaluateOnTestSet(model, curriculum.at(d), problemsAt(d)))['eval/accuracy'];
  }
  metrics['eval/accuracy_target'] = metrics[`eval/accuracy_${curriculum.width}_digits`];
  return metrics;
}

export function createSelfImproveTrainer(model: TinyLM, overrides: Record<string, unknown> = {}): SelfImproveTrainer {
  const config = resolve(selfImproveSchema, overrides);
  if (config.demonstration_digits >= config.target_digits) {
    throw new Error(`demonstration_digits (${config.demonstration_digits}) must be below target_digits (${config.target_digits}): the target is what no demonstration shows`);
  }
  const loaded = config.init_from === 'sft';
  if (loaded && (config.demonstration_digits !== SELF_IMPROVE_SFT.demonstration_digits || config.target_digits !== SELF_IMPROVE_SFT.target_digits)) {
    throw new Error(
      `init_from 'sft' loads a round 0 trained on ${SELF_IMPROVE_SFT.demonstration_digits}-column demonstrations for a ${SELF_IMPROVE_SFT.target_digits}-digit target; with demonstration_digits ${config.demonstration_digits} and target_digits ${config.target_digits}, set init_from 'base' to train round 0 in the run`,
    );
  }
  const curriculum = createAdditionCurriculum({ width: config.target_digits });
  const task = curriculum.at(1); // every difficulty shares tokenizer, prompt length and encoders
  checkFitsContext(task.promptLength, task.maxCompletionLength, model);
  const root = createRng(config.seed);
  const problemRng = root.fork('self-improve-problems');
  const sampleRng = root.fork('self-improve-sampling');
  const tok = task.tokenizer;
  const difficulties = Array.from({ length: config.target_digits }, (_, i) => i + 1);
  const testSets = difficulties.map((d) => curriculum.at(d).testSet(config.eval_samples));

  /** Every kept sample so far, once each: [prompt tokens, completion tokens through EOS]. */
  const pool: { prompt: number[]; completion: number[] }[] = [];
  const inPool = new Set<string>();
  let useSamples = false; // round 0 trains on demonstrations alone

  const demonstrations = (n: number, rng: Rng): CurriculumProblem[] =>
    Array.from({ length: n }, () => curriculum.at(1 + rng.int(config.demonstration_digits)).sample('train', 1, rng)[0]);
  const source: SftSource = {
    batch(n, rng) {
      const fromPool = useSamples && pool.length > 0 ? Math.round(n * (1 - config.demo_fraction)) : 0;
      const batch = referenceCompletions(task, demonstrations(n - fromPool, rng));
      for (let i = 0; i < fromPool; i++) {
        const s = pool[rng.int(pool.length)];
        batch.prompts.push(s.prompt);
        batch.completions.push(s.completion);
        batch.mask.push(s.completion.map(() => 1));
      }
      return batch;
    },
    evaluate: async () => ({}),
    pad: tok.pad,
  };
  const sft = sftTrainerOn(model, source, resolve(sftSchema, { learning_rate: config.learning_rate, per_device_train_batch_size: config.per_device_train_batch_size, max_grad_norm: config.max_grad_norm, seed: config.seed }));

  let round = -1;
  let numTokens = 0; // sampled tokens, prompts included
  let sftTokens = 0; // the fine-tuning's own count (SFT's num_tokens)
  let lastSamples: InspectedSample[] = [];
  const accuracyHistory: SelfImproveInspection['accuracy'] = [];
  /** The evaluation after the last round, so the loop's own evaluate() right after it costs nothing. */
  let freshEval: Metrics | null = null;
  let phaseListener: ((phase: string) => void) | null = null;
  const phase = (name: string) => phaseListener?.(name);

  const evaluateAll = () => evaluateCurriculum(model, curriculum, (d) => testSets[d - 1]);

  /** Sample, filter and pool one round's answers at `difficulty`; returns the round's counts. */
  async function collect(difficulty: number): Promise<Metrics> {
    const G = config.num_generations;
    const { problems, prompts, generation: gen } = await sampleGroups(
      model,
      curriculum.at(difficulty),
      config.num_prompts,
      { num_generations: G, temperature: config.temperature, max_completion_length: task.maxCompletionLength },
      { problems: problemRng, sampling: sampleRng },
    );
    const texts = gen.completions.map((c) => tok.decode(c));
    const answers = problems.map((p) => p.answer);
    const right = verified(texts, answers);
    const kept = filterSamples(config.filter, { texts, finished: gen.finished, answers, groupSize: G });
    const keptSet = new Set(kept);
    let added = 0;
    for (const i of kept) {
      const key = `${problems[i].prompt}|${texts[i]}`;
      if (inPool.has(key)) continue;
      inPool.add(key);
      pool.push({ prompt: prompts[i], completion: gen.completions[i].slice(0, gen.lengths[i]) });
      added += 1;
    }
    numTokens += problems.reduce((s, p, i) => s + task.promptLength + gen.lengths[i], 0);
    lastSamples = problems.slice(0, INSPECTED_GROUPS * G).map((p, i) => ({ prompt: p.prompt, answer: p.answer, text: texts[i], kept: keptSet.has(i), correct: right[i] }));
    const count = (xs: boolean[]) => xs.filter(Boolean).length;
    return {
      samples: texts.length,
      sample_accuracy: count(right) / texts.length,
      kept: kept.length,
      kept_precision: keptPrecision(kept, right),
      // What a verifier would have thrown out of the kept samples: wrong answers the model is about to learn.
      kept_wrong: kept.filter((i) => !right[i]).length,
      pool_size: pool.length,
      pool_added: added,
    };
  }

  return {
    config,
    model,
    trainStep: async (pausePoint: PausePoint = noPausePoint) => {
      const timer = new StepTimer();
      // A pause point consumes no random numbers and touches no state of the round: only the clock, which it stops.
      const mayPause = () => timer.untimed(pausePoint);
      round += 1;
      freshEval = null;
      const difficulty = roundDifficulty(round, config);
      if (round > 0) phase(`round ${round}: sampling ${config.num_generations} answers to ${config.num_prompts} ${difficulty}-digit sums and filtering them (${config.filter})`);
      const counts = round === 0 ? {} : await timer.timeAsync('generation', () => collect(difficulty));
      if (round === 0) lastSamples = [];
      useSamples = round > 0;
      // Loaded (init_from 'sft'), round 0's SFT was done ahead of time: the round only evaluates the checkpoint.
      const steps = round === 0 ? (loaded ? 0 : config.demo_steps) : config.steps_per_round;
      let [loss, tokenAccuracy] = [0, 0];
      if (round > 0 || !loaded) phase(round === 0 ? `round 0: fine-tuning on the demonstrations (${steps} steps)` : `round ${round}: fine-tuning on ${config.demo_fraction === 1 ? 'the demonstrations alone' : 'kept samples and demonstrations'} (${steps} steps)`);
      for (let s = 0; s < steps; s++) {
        await mayPause(); // before each fine-tuning step, the first included: right after sampling
        const m = await timer.timeAsync('fine_tuning', () => sft.trainStep());
        [loss, tokenAccuracy] = [loss + m.loss / steps, tokenAccuracy + m.mean_token_accuracy / steps];
        if (s === steps - 1) sftTokens = m.num_tokens;
      }
      await mayPause();
      phase(round === 0 && loaded ? `round 0: loaded, not trained (${SELF_IMPROVE_SFT.demo_steps} steps of SFT on the demonstrations, done ahead of time): evaluating every difficulty` : `round ${round}: evaluating every difficulty`);
      const evaluation = await timer.timeAsync('evaluation', evaluateAll);
      freshEval = evaluation;
      accuracyHistory.push({ round, byDifficulty: difficulties.map((d) => evaluation[`eval/accuracy_${d}_digits`]) });
      // A loaded round 0 trained no step here: it logs no loss rather than a 0.
      const fit: Metrics = steps > 0 ? { loss, mean_token_accuracy: tokenAccuracy } : {};
      return { round, difficulty, ...counts, ...fit, num_tokens: numTokens + sftTokens, 'eval/accuracy_target': evaluation['eval/accuracy_target'], ...timer.metrics() };
    },
    evaluate: async () => {
      if (freshEval) return freshEval;
      return evaluateAll();
    },
    inspect: async () =>
      round < 0
        ? null
        : {
            round,
            difficulty: roundDifficulty(round, config),
            filter: config.filter,
            demonstrationDigits: config.demonstration_digits,
            targetDigits: config.target_digits,
            roundZero: { loaded, steps: loaded ? SELF_IMPROVE_SFT.demo_steps : config.demo_steps },
            samples: lastSamples,
            accuracy: accuracyHistory.map((a) => ({ round: a.round, byDifficulty: [...a.byDifficulty] })),
          },
    onPhase(listener) {
      phaseListener = listener;
    },
    dispose() {
      sft.dispose();
    },
  };
}
/**
 * For the registry: the trainer starts from its round-0 checkpoint (init_from 'sft', the registry's checkpoint) or
 * builds its own model (seeded, sized for target_digits), or continues one given with --init whose context fits the
 * curriculum.
 */
export const selfImproveFactory = lmTrainerFactory(
  (model, overrides) => createSelfImproveTrainer(model, overrides),
  (init, overrides) => {
    const config = resolve(selfImproveSchema, overrides);
    return init ? loadTinyLM(init) : createTinyLM(selfImproveModelConfig(config.target_digits), config.seed);
  },
);
