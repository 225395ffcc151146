/**
 * The vision lab's trainer: a tiny vision-language model (lib/models/vision-lm.ts) on the picture questions of
 * lib/tasks/vision.ts, in two phases, one trainer step at a time:
 *
 *   steps 1 … sft_steps   SFT on described pictures: cross-entropy on the right answer's tokens (completion only),
 *                         the SFT trainer's step (on-policy.ts sftStep)
 *   later steps           GRPO (grpo-update.ts, TRL's GRPOTrainer schedule) with a correctness reward: num_generations
 *                         sampled answers per picture and question, group-relative advantages
 *
 * The pictures ride along with their rows: the model is bound to an image slot (bindPictures) that holds the current
 * batch's patches, so the GRPO update and the SFT step run the same code as for a text-only TinyLM. Under text_only the
 * slot stays empty and the model sees only the question.
 *
 * Metrics: SFT steps log `sft/loss` and `sft/mean_token_accuracy`; GRPO steps log TRL's names (`loss`, `reward`,
 * `reward_std`, …) and `completions/mean_length`; every step logs `phase` (0 SFT, 1 GRPO) and `num_tokens`.
 * Evaluation: greedy held-out `eval/accuracy`, and per question kind `eval/accuracy_<kind>`.
 */
import * as tf from '@tensorflow/tfjs';
import { loadVisionLM, saveWeights } from '@/lib/models/checkpoint';
import { configForTask } from '@/lib/models/presets';
import { bindPictures, createImageSlot, createVisionLM, sampleAnswers, type VisionLM, type VisionLMConfig } from '@/lib/models/vision-lm';
import { createRng, type Rng } from '@/lib/random';
import { COUNTING_KINDS, createVisionTask, MIXED_KINDS, type VisionProblem, type VisionTask } from '@/lib/tasks/vision';
import type { ConfigOf } from './config';
import { createGrpoStepper, type Generated, type GrpoStepper } from './grpo-update';
import { readScalars, referenceCompletions } from './lm-batch';
import { mean, repeatEach, resolveOnPolicyConfig, samplingConfig, sftStep, updateConfigOf } from './on-policy';
import { adam, StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';
import { ownModel, type Trainer, type TrainerFactory } from './trainer';
import { visionSchema } from './vision-config';
import type { VisionGroupSample, VisionInspector } from './vision-inspector';

export type VisionConfig = ConfigOf<typeof visionSchema>;

/** Groups the inspector shows of a step: a few pictures, not the whole batch. */
export const INSPECTED_GROUPS = 4;

/** The vision config from overrides; a GRPO step's pictures come in whole groups (lib/train/on-policy.ts). */
export function resolveVisionConfig(overrides: Record<string, unknown> = {}): VisionConfig {
  return resolveOnPolicyConfig(visionSchema, overrides);
}

export function visionTaskFor(config: Pick<VisionConfig, 'questions' | 'grid_size' | 'occupancy'>): VisionTask {
  return createVisionTask({ size: config.grid_size, kinds: config.questions === 'counting' ? COUNTING_KINDS : MIXED_KINDS, occupancy: config.occupancy });
}

/** The lab's model for a task: the encoder's patch per cell, and an LM whose context holds the image tokens, the prompt and the answer. */
export function visionModelConfig(task: VisionTask): VisionLMConfig {
  const P = task.patchGrid * task.patchGrid;
  const lm = configForTask({ tokenizer: task.tokenizer, promptLength: P + task.promptLength, maxCompletionLength: task.maxCompletionLength });
  return { lm, encoder: { patch_size: 4, num_channels: 3, patch_grid: task.patchGrid, d_model: lm.d_model } };
}

export interface VisionTrainer extends Trainer<typeof visionSchema, VisionInspector> {
  readonly model: VisionLM;
  readonly task: VisionTask;
}

/** What the latest step saw, kept as plain data; the inspector adds attention when asked. */
interface LastStep {
  phase: 'sft' | 'grpo';
  problems: VisionProblem[];
  /** Per problem: its answers as sampled (GRPO), or none yet (SFT: the inspector answers greedily). */
  answers: { completion: string; reward: number; correct: boolean }[][] | null;
  /** GRPO: the step's token view, its rows' questions and answer tokens. */
  tokenView: NonNullable<VisionInspector['tokenView']> | null;
}

export function createVisionTrainer(model: VisionLM, overrides: Record<string, unknown> = {}): Omit<VisionTrainer, 'save'> {
  const config = resolveVisionConfig(overrides);
  const task = visionTaskFor(config);
  const expected = visionModelConfig(task);
  if (model.config.encoder.patch_grid !== task.patchGrid || model.lm.config.context_length < expected.lm.context_length || model.lm.config.vocab_size !== expected.lm.vocab_size) {
    throw new Error(`this model does not fit ${task.patchGrid} × ${task.patchGrid} pictures with the vision questions (patch grid ${model.config.encoder.patch_grid}, context ${model.lm.config.context_length}, vocabulary ${model.lm.config.vocab_size})`);
  }
  const tok = task.tokenizer;
  const G = config.num_generations;
  const M = task.maxCompletionLength;
  const P = task.patchGrid * task.patchGrid;
  const root = createRng(config.seed);
  const dataRng: Rng = root.fork('vision-problems');
  const sampleRng: Rng = root.fork('vision-sampling');
  const testSet = task.testSet(config.eval_samples);
  const slot = createImageSlot();
  const policy = bindPictures(model, slot);
  const sftOptimizer = adam(config.sft_learning_rate);
  let grpo: GrpoStepper<null> | null = null; // made at the switch: its reference (with beta > 0) is the SFT model
  let step = 0;
  let numTokens = 0;
  let last: LastStep | null = null;
  /** The generation batch's questions and answer tokens, by row: the token view labels its rows from them. */
  let batchRows: { questions: string[]; tokens: string[][] } | null = null;
  let phaseListener: ((phase: string) => void) | null = null;

  const picturesOf = (problems: VisionProblem[]) => visionPictures(task, problems, config.use_image);
  /** Tokens the model reads for `rows` prompts (image tokens included) plus the completions' tokens. */
  const tokensRead = (rows: number, completionTokens: number) => rows * (task.promptLength + (config.use_image ? P : 0)) + completionTokens;
  const texts = (completions: number[][]) => completions.map((c) => tok.decode(c));

  async function supervisedStep(keep: Keep): Promise<Metrics> {
    const timer = new StepTimer();
    const problems = task.sample('train', config.sft_batch_size, dataRng);
    const ref = referenceCompletions(task, problems);
    slot.set(picturesOf(problems));
    const scalars = sftStep(policy, sftOptimizer, ref, { pad: tok.pad, maxGradNorm: config.max_grad_norm, keep, timer }); // its entropy, not logged here, ends with the scope
    numTokens += tokensRead(problems.length, ref.completions.reduce((s, c) => s + c.length, 0));
    last = { phase: 'sft', problems: problems.slice(0, INSPECTED_GROUPS), answers: null, tokenView: null };
    return { ...(await readScalars({ 'sft/loss': scalars.loss, 'sft/mean_token_accuracy': scalars.meanTokenAccuracy, 'sft/grad_norm': scalars.gradNorm })), phase: 0, num_tokens: numTokens, ...timer.metrics() };
  }

  /** One GRPO generation batch: pictures, G sampled answers each, rewards (1 for the right answer). */
  async function generateGroups(timer: StepTimer): Promise<Generated<null>> {
    const base = task.sample('train', config.per_device_train_batch_size / G, dataRng);
    const problems = repeatEach(base, G);
    const pictures = picturesOf(problems);
    slot.set(pictures); // the update below trains on these rows, in this order
    const prompts = problems.map((p) => task.encodePrompt(p));
    const gen = await timer.timeAsync('generation', () => sampleAnswers(model, prompts, pictures, samplingConfig({ temperature: config.temperature, max_completion_length: M }, tok), sampleRng));
    const said = texts(gen.completions);
    const rewards = said.map((t, i) => Number(gen.finished[i] && t === problems[i].answer));
    numTokens += tokensRead(problems.length, gen.lengths.reduce((a, b) => a + b, 0));
    last = {
      phase: 'grpo',
      problems: base.slice(0, INSPECTED_GROUPS),
      answers: base.slice(0, INSPECTED_GROUPS).map((_, g) => Array.from({ length: G }, (_, j) => ({ completion: said[g * G + j], reward: rewards[g * G + j], correct: rewards[g * G + j] === 1 }))),
      tokenView: null,
    };
    batchRows = { questions: problems.map((p) => p.question), tokens: gen.completions.map((c) => c.map((id) => tok.decode([id], { raw: true }))) };
    return {
      batch: { prompts, completions: gen.completions, lossMask: gen.completionMask, rewardsPerFunc: rewards.map((r) => [r]), rewardWeights: [1], pad: tok.pad },
      metrics: { 'completions/mean_length': mean(gen.lengths) },
      samples: null,
    };
  }

  async function grpoStep(keep: Keep): Promise<Metrics> {
    if (!grpo) {
      phaseListener?.(`GRPO: ${G} answers per picture, rewarded when right`);
      grpo = createGrpoStepper(policy, updateConfigOf({ ...config, max_completion_length: M }), generateGroups, root.fork('vision-shuffle'));
    }
    const metrics = await grpo.trainStep(keep, () => undefined, (terms) => {
      if (last && batchRows) {
        const rows = terms.rows.map((r) => r.row);
        last.tokenView = { terms, questions: rows.map((r) => batchRows!.questions[r]), tokens: rows.map((r) => batchRows!.tokens[r]) };
      }
    });
    return { ...metrics, phase: 1, num_tokens: numTokens };
  }

  async function trainStep(keep: Keep): Promise<Metrics> {
    step += 1;
    if (step === 1 && config.sft_steps > 0) phaseListener?.(`SFT on described pictures (${config.sft_steps} steps)`);
    return step <= config.sft_steps ? supervisedStep(keep) : grpoStep(keep);
  }

  const greedy = (problems: VisionProblem[]) => greedyVisionAnswers(model, task, problems, config.use_image);
  const evaluate = () => evaluateVisionAnswers(model, task, testSet, config.use_image);

  /**
   * The latest step's groups; for each group's first answer, the last layer's attention (heads averaged) from the
   * position that predicts the answer's first token over the image tokens, under the weights as they are now.
   */
  async function inspect(): Promise<VisionInspector | null> {
    if (!last) return null;
    const { phase, problems } = last;
    const answers = last.answers ?? (await greedy(problems)).map((t, i) => [{ completion: t, reward: Number(t === problems[i].answer), correct: t === problems[i].answer }]);
    let attention: number[][] | null = null;
    const pictures = picturesOf(problems);
    if (pictures) {
      const q = task.promptLength - 1; // the last prompt token predicts the answer's first token
      const probs = tf.tidy(() => {
        const ids = tf.tensor2d(problems.map((p) => task.encodePrompt(p)), [problems.length, task.promptLength], 'int32');
        const out = model.forward(ids, pictures, { returnAttention: true });
        const att = out.attention!; // [B, H, P + T, P + T]
        return tf.mean(tf.slice(att, [0, 0, P + q, 0], [problems.length, att.shape[1], 1, P]), [1, 2]); // [B, P]
      });
      const flat = await probs.data();
      tf.dispose([probs, pictures]);
      attention = problems.map((_, b) => Array.from(flat.subarray(b * P, (b + 1) * P)));
    }
    const groups: VisionGroupSample[] = problems.map((p, b) => ({
      scene: config.use_image ? p.scene : null,
      question: p.question,
      truth: p.answer,
      answers: answers[b],
      attention: attention ? attention[b] : null,
      patchGrid: task.patchGrid,
    }));
    return { phase, groups, tokenView: last.tokenView };
  }

  return {
    config,
    model,
    task,
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(evaluate),
    inspect: () => inTensorScope(inspect),
    onPhase(listener) {
      phaseListener = listener;
    },
    dispose() {
      grpo?.dispose();
      sftOptimizer.dispose();
      slot.dispose();
    },
  };
}

/** The problems' pictures as one [N, P, patch_dim] tensor, or null without the picture (a problem repeated for its group is drawn once). */
function visionPictures(task: VisionTask, problems: VisionProblem[], useImage: boolean): tf.Tensor3D | null {
  if (!useImage) return null;
  const P = task.patchGrid * task.patchGrid;
  const flat = new Float32Array(problems.length * P * task.patchDim);
  const drawn = new Map<VisionProblem, Float32Array>();
  problems.forEach((p, i) => {
    if (!drawn.has(p)) drawn.set(p, task.patches(p.scene));
    flat.set(drawn.get(p)!, i * P * task.patchDim);
  });
  return tf.tensor3d(flat, [problems.length, P, task.patchDim]);
}

/** Greedy answers to `problems`, in chunks (their pictures made per chunk); an answer cut off before EOS ends in '…'. */
async function greedyVisionAnswers(model: VisionLM, task: VisionTask, problems: VisionProblem[], useImage: boolean): Promise<string[]> {
  const tok = task.tokenizer;
  const rng = createRng('eval'); // greedy decoding never draws from it
  const out: string[] = [];
  for (let i = 0; i < problems.length; i += 100) {
    const chunk = problems.slice(i, i + 100);
    const pictures = visionPictures(task, chunk, useImage);
    try {
      const gen = await sampleAnswers(model, chunk.map((p) => task.encodePrompt(p)), pictures, samplingConfig({ temperature: 0, max_completion_length: task.maxCompletionLength }, tok), rng);
      out.push(...gen.completions.map((c, j) => (gen.finished[j] ? tok.decode(c) : `${tok.decode(c)}…`)));
    } finally {
      pictures?.dispose();
    }
  }
  return out;
}

/**
 * The run's held-out evaluation, on any problems of the task: greedy `eval/accuracy`, and `eval/accuracy_<kind>` for
 * each question kind among them. The trainer runs it on its test set; grading (lib/train/grading/vision.ts) on a
 * saved run's weights, with the test set or the instructor's seeded problems.
 */
export async function evaluateVisionAnswers(model: VisionLM, task: VisionTask, problems: VisionProblem[], useImage: boolean): Promise<Metrics> {
  const said = await greedyVisionAnswers(model, task, problems, useImage);
  const right = said.map((t, i) => t === problems[i].answer);
  const metrics: Metrics = { 'eval/accuracy': right.filter(Boolean).length / right.length };
  for (const kind of new Set(problems.map((p) => p.kind))) {
    const of = problems.flatMap((p, i) => (p.kind === kind ? [right[i]] : []));
    metrics[`eval/accuracy_${kind}`] = of.filter(Boolean).length / of.length;
  }
  return metrics;
}

/**
 * For the registry: the shipped SFT checkpoint's model (init_from 'sft': the registry reads the file), a saved run's
 * (--init), or with no file (init_from 'base') a fresh model seeded by the run's seed.
 */
export const visionFactory: TrainerFactory<typeof visionSchema, VisionInspector> = async (init, overrides) => {
  const config = resolveVisionConfig(overrides);
  const model = init ? loadVisionLM(init) : createVisionLM(visionModelConfig(visionTaskFor(config)), config.seed);
  const trainer = await ownModel(model, (m) => createVisionTrainer(m, config));
  return Object.assign(trainer, { save: () => saveWeights(model) });
};
