/**
 * The self-improvement lab's round 0 ships as a checkpoint (public/models/self-improve-sft.arlw, built by
 * scripts/build-self-improve-checkpoint.ts): the default starts from it, full_schedule trains round 0 in the run, and
 * the file is that round: evaluated on wasm it scores what round 0 scored when full_schedule trained it in the
 * recorded run (content/self-improve-runs.json, seed 0), every difficulty to the half point.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import runsJson from '@/content/self-improve-runs.json';
import { selfImproveRunsSchema } from '@/content/self-improve-runs';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { checkpointFor } from '@/lib/spec/registry';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';
import { selectBackend } from '@/lib/tf/backend';
import { defaults } from '@/lib/train/config';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { SELF_IMPROVE_SFT, selfImprovePresets, selfImproveSchema } from '@/lib/train/self-improve-config';
import { selfImproveModelConfig } from '@/lib/train/self-improve-model';
import { evaluateCurriculum } from '@/lib/train/self-improve-trainer';

beforeAll(async () => {
  expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('the self-improvement lab’s round-0 checkpoint', () => {
  it('is where the default starts; full_schedule (init_from base) builds its own model and trains round 0', () => {
    expect(checkpointFor('self_improve', {})).toBe('self_improve_sft');
    expect(checkpointFor('self_improve', selfImprovePresets.majority.overrides)).toBe('self_improve_sft');
    expect(checkpointFor('self_improve', selfImprovePresets.sft_only.overrides)).toBe('self_improve_sft');
    expect(checkpointFor('self_improve', selfImprovePresets.full_schedule.overrides)).toBeNull();
  });

  it('is made with the schema’s own round-0 settings, so loading it and training round 0 start later rounds alike', () => {
    const d = defaults(selfImproveSchema);
    const { seed, ...recipe } = SELF_IMPROVE_SFT;
    expect(seed).toBe(0);
    for (const [field, value] of Object.entries(recipe)) expect(d[field as keyof typeof d], field).toBe(value);
  });

  it('scores what round 0 scored when full_schedule trained it in the recorded run (seed 0)', async () => {
    const model = loadTinyLM(new Uint8Array(fs.readFileSync(`public/${CHECKPOINTS.self_improve_sft}`)), { frozen: true });
    expect(model.config).toMatchObject(selfImproveModelConfig(SELF_IMPROVE_SFT.target_digits));
    const curriculum = createAdditionCurriculum({ width: SELF_IMPROVE_SFT.target_digits });
    const samples = selfImproveSchema.eval_samples.default;
    const measured = await evaluateCurriculum(model, curriculum, (d) => curriculum.at(d).testSet(samples));
    model.dispose();
    const runs = selfImproveRunsSchema.parse(runsJson).runs;
    const round0 = (h: typeof runs.default.history) => h.find((l) => l.kind === 'eval' && l.step === 1)!.metrics;
    expect(measured).toEqual(round0(runs.full_schedule.history));
    expect(measured).toEqual(round0(runs.default.history));
  });
});
