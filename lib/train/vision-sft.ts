/**
 * The vision lab's shipped SFT checkpoint (public/models/vision-sft.arlw), made by the lab's own trainer: a fresh
 * model (init_from 'base', seed VISION_SFT.seed) trained by its SFT phase alone for VISION_SFT.steps steps, on the
 * default's pictures and questions. The default preset's GRPO starts from it; the from_scratch preset runs the same
 * SFT phase live. scripts/build-vision-checkpoint.ts writes it; tests/unit/train/vision-sft.test.ts checks that the
 * shipped file is what this makes.
 */
import { TrainingRun, type LogLine } from './run';
import { VISION_SFT } from './vision-config';
import { visionFactory } from './vision-trainer';

/** The SFT phase alone, as the from_scratch preset runs its first VISION_SFT.steps steps. */
export const VISION_SFT_OVERRIDES = { init_from: 'base', sft_steps: VISION_SFT.steps, max_steps: VISION_SFT.steps, eval_steps: VISION_SFT.steps, seed: VISION_SFT.seed } as const;

/** Trains the checkpoint (on the active backend: wasm for the shipped file) and returns its bytes and the run's log. */
export async function buildVisionSft(onLog?: (line: LogLine) => void): Promise<{ bytes: Uint8Array; history: LogLine[] }> {
  const trainer = await visionFactory(null, VISION_SFT_OVERRIDES);
  try {
    const run = new TrainingRun(trainer, { maxSteps: VISION_SFT.steps, evalEvery: VISION_SFT.steps, onLog });
    if ((await run.run()) !== 'done') throw new Error(run.error ?? 'vision-sft did not finish');
    return { bytes: await trainer.save(), history: run.history };
  } finally {
    trainer.dispose();
  }
}
