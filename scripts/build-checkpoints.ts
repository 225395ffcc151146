/**
 * npm run build:checkpoints — rebuilds the checkpoints the labs ship, reproducibly (wasm backend, fixed seeds):
 *   public/models/base.arlw  the lab model freshly initialised (seed 0)
 *   public/models/sft.arlw   base after a deliberately short SFT run, so it is right on some held-out problems
 *                            and wrong on many: RL has room to improve it.
 * Prints the SFT run as JSON lines and the final held-out accuracy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { CHECKPOINTS, createLabTask, labModelConfig } from '@/lib/train/lab-setup';
import { TrainingRun } from '@/lib/train/run';
import { createSftTrainer } from '@/lib/train/sft-trainer';

/** Steps of SFT for the shipped checkpoint: chosen so held-out accuracy lands well short of its ceiling. */
export const SFT_CHECKPOINT_STEPS = 170;

// wasm: ~20x faster than cpu here, and as deterministic on one backend.
if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');
const task = createLabTask();
const model = createTinyLM(labModelConfig(task), 0);
const write = async (file: string) => {
  const target = path.join('public', file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const bytes = await saveTinyLM(model);
  fs.writeFileSync(target, bytes);
  console.error(`wrote ${target} (${bytes.length} bytes, ${model.paramCount()} parameters)`);
};
await write(CHECKPOINTS.base);

const trainer = createSftTrainer(model, task, { max_steps: SFT_CHECKPOINT_STEPS, seed: 0 });
const run = new TrainingRun(trainer, {
  maxSteps: SFT_CHECKPOINT_STEPS,
  evalEvery: 25,
  onLog: (line) => console.log(JSON.stringify({ step: line.step, kind: line.kind, ...line.metrics })),
});
if ((await run.run()) !== 'done') throw new Error(run.error ?? 'SFT did not finish');
await write(CHECKPOINTS.sft);
const final = run.history.filter((l) => l.kind === 'eval').at(-1);
console.error(`SFT checkpoint: held-out accuracy ${final?.metrics['eval/accuracy']} after ${SFT_CHECKPOINT_STEPS} steps`);
trainer.dispose();
