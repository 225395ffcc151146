/**
 * The vision lab's default starts from its shipped SFT checkpoint (public/models/vision-sft.arlw), and the lab, the
 * CLI and an assignment all start from it through the registry; the presets that build their own model start from
 * nothing; and the shipped file is, byte for byte, what scripts/build-vision-checkpoint.ts makes (wasm, seed 0).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWeightsFile } from '@/lib/models/weights-file';
import { checkpointFor } from '@/lib/spec/registry';
import { startTrainer } from '@/lib/spec/start';
import { createAssignment } from '@/lib/teach/assignment';
import { parseGoal } from '@/lib/teach/goal';
import { selectBackend } from '@/lib/tf/backend';
import { ConfigError } from '@/lib/train/config';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { VISION_SFT, visionPresets } from '@/lib/train/vision-config';
import { buildVisionSft } from '@/lib/train/vision-sft';

const shipped = () => new Uint8Array(fs.readFileSync(`public/${CHECKPOINTS.vision_sft}`));
const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  await selectBackend({ requested: 'cpu', order: ['cpu'] });
});

describe('where a vision run starts', () => {
  it('the default from the SFT checkpoint; from_scratch, text_only and counting from an untrained model', () => {
    expect(checkpointFor('vision', {})).toBe('vision_sft');
    expect(checkpointFor('vision', visionPresets.default.overrides)).toBe('vision_sft');
    for (const preset of ['from_scratch', 'text_only', 'counting'] as const) expect(checkpointFor('vision', visionPresets[preset].overrides)).toBeNull();
    // The checkpoint reads 4 × 4 pictures: another size from it is refused before any file is read.
    expect(() => checkpointFor('vision', { grid_size: 5 })).toThrow(ConfigError);
    expect(() => checkpointFor('vision', { grid_size: 5 })).toThrow(/init_from "sft" is a model of 4 × 4 pictures; for grid_size 5 choose init_from "base"/);
  });

  it('the lab and the CLI start from the checkpoint’s weights exactly, at its recorded held-out accuracy', async () => {
    const { trainer } = await startTrainer('vision', { overrides: {}, readCheckpoint });
    // The same model and weights (decoded: the header's keys may come back in another order).
    expect(decodeWeightsFile(await trainer.save())).toEqual(decodeWeightsFile(shipped()));
    expect((await trainer.evaluate())['eval/accuracy']).toBe(0.5); // the 50.0% init_from's reason and chapter 10 state
    trainer.dispose();
    await expect(startTrainer('vision', { overrides: {} })).rejects.toThrow(/vision starts from models\/vision-sft.arlw, and no way to read it was given/);
  });

  it('an assignment of the default preset starts where the lab does', async () => {
    const assignment = await createAssignment({
      lab: 'vision',
      trainer: 'vision',
      title: 'Vision',
      preset: 'default',
      overrides: { seed: 3 },
      locked: ['max_steps'],
      goal: parseGoal('eval/accuracy >= 0.5', 'vision'),
      evalSeed: 7,
    });
    expect(assignment.settings).toMatchObject({ init_from: 'sft', sft_steps: 0 });
    expect(checkpointFor('vision', assignment.settings)).toBe(checkpointFor('vision', {}));
  });
});

describe('the shipped checkpoint', () => {
  it('is what scripts/build-vision-checkpoint.ts makes, byte for byte (wasm, seed 0)', async () => {
    const { bytes, history } = await buildVisionSft();
    expect(history.filter((l) => l.kind === 'train')).toHaveLength(VISION_SFT.steps);
    expect(history.at(-1)!.metrics['eval/accuracy']).toBe(0.5);
    expect(bytes).toEqual(shipped());
  }, 300_000);
});
