/**
 * Rebuilds public/models/self-improve-sft.arlw reproducibly (wasm): the self-improvement lab's round 0, run as the
 * trainer runs it with init_from 'base' (SFT on the demonstrations from an untrained model, SELF_IMPROVE_SFT's
 * settings). A run with init_from 'sft' (the default) loads it and starts where the full schedule's round 0 ends. Run
 * alone (`npx tsx scripts/build-self-improve-checkpoint.ts`) or as part of `npm run build:checkpoints`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { SELF_IMPROVE_SFT } from '@/lib/train/self-improve-config';
import { selfImproveModelConfig } from '@/lib/train/self-improve-model';
import { createSelfImproveTrainer } from '@/lib/train/self-improve-trainer';

if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');

const model = createTinyLM(selfImproveModelConfig(SELF_IMPROVE_SFT.target_digits), SELF_IMPROVE_SFT.seed);
const trainer = createSelfImproveTrainer(model, { ...SELF_IMPROVE_SFT, init_from: 'base', max_steps: 1 });
const round0 = await trainer.trainStep();
console.log(JSON.stringify({ run: 'self-improve-sft', ...round0, ...(await trainer.evaluate()) }));
const target = path.join('public', CHECKPOINTS.self_improve_sft);
const bytes = await saveTinyLM(model);
fs.writeFileSync(target, bytes);
console.error(`wrote ${target} (${bytes.length} bytes, ${model.paramCount()} parameters)`);
trainer.dispose();
model.dispose();
