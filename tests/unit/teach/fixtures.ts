/** Shared test data for the assignment tests: one GRPO assignment, and submissions built the way Submit builds them. */
import fs from 'node:fs';
import { actorCriticWeightShapes } from '@/lib/models/shapes';
import { encodeWeightsFile } from '@/lib/models/weights-file';
import type { AssignmentInput, SharedAssignment } from '@/lib/teach/assignment';
import { parseGoal } from '@/lib/teach/goal';
import { buildSubmission, submissionDigest } from '@/lib/teach/submission';
import { settingsForStudent } from '@/lib/teach/seeds';
import type { LogLine } from '@/lib/train/run';

export const GRPO_INPUT: AssignmentInput = {
  lab: 'grpo',
  trainer: 'grpo',
  title: 'GRPO, week 3',
  preset: 'kl',
  overrides: { max_steps: 3, eval_steps: 3, seed: 5 },
  locked: ['beta', 'max_steps', 'seed'],
  goal: parseGoal('eval/accuracy >= 0.45', 'grpo'),
  evalSeed: 1234,
  due: '2031-05-01T17:00:00+02:00',
  instructions: 'Try **two** learning rates.',
};

/** Shipped checkpoints: the SFT model stands for a trained run's weights, the untrained base for another run's. */
export const SFT_WEIGHTS = new Uint8Array(fs.readFileSync('public/models/sft.arlw'));
export const BASE_WEIGHTS = new Uint8Array(fs.readFileSync('public/models/base.arlw'));

/** An actor-critic checkpoint (a PPO run's shape), all zeros: weights of the wrong kind for an LM lab. */
export function actorCriticWeights(config = { obs_dim: 25, n_actions: 4, hidden_sizes: [32, 32] }): Uint8Array {
  const tensors = [...actorCriticWeightShapes(config)].map(([name, shape]) => ({ name, shape, values: new Float32Array(shape.reduce((a, b) => a * b, 1)) }));
  return encodeWeightsFile({ kind: 'actor-critic', config, state: {}, tensors });
}

/** A finished run's history: evaluations before the first step and after the last (step max_steps). */
export function history(maxSteps: number, finalAccuracy: number): LogLine[] {
  return [
    { step: 0, kind: 'eval', metrics: { 'eval/accuracy': 0.275, 'eval/format': 1 } },
    ...Array.from({ length: maxSteps }, (_, i): LogLine => ({ step: i + 1, kind: 'train', metrics: { loss: 0.1, reward: 0.5 } })),
    { step: maxSteps, kind: 'eval', metrics: { 'eval/accuracy': finalAccuracy, 'eval/format': 1 } },
  ];
}

/** A submission's parsed JSON, as Submit writes it: trained on the student's own seed where the assignment gives one. */
export async function submissionJson(assignment: SharedAssignment, opts: { student?: string; weights?: Uint8Array; finalAccuracy?: number; submitted?: Date } = {}) {
  const student = opts.student ?? 'Ada Lovelace';
  const config = settingsForStudent(assignment, student);
  const s = await buildSubmission({
    student,
    assignment,
    trainer: assignment.trainer,
    config,
    history: history(Number(config.max_steps), opts.finalAccuracy ?? 0.275),
    weights: opts.weights ?? SFT_WEIGHTS,
    environment: { backend: 'wasm', tfjs: '4.22.0', runtime: 'test' },
    submitted: opts.submitted ?? new Date('2031-04-20T12:00:00Z'),
  });
  return JSON.parse(JSON.stringify(s)) as Record<string, any>;
}

/** Recomputes the digest after an edit, as a careful forger would. */
export async function rehash(json: Record<string, unknown>) {
  json.digest = await submissionDigest(json);
  return json;
}
