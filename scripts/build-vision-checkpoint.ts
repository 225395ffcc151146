/**
 * Rebuilds public/models/vision-sft.arlw reproducibly (wasm, seed 0): the vision lab's model after its SFT phase on
 * described pictures (lib/train/vision-sft.ts), where the default preset's GRPO starts. Run alone
 * (`npx tsx scripts/build-vision-checkpoint.ts`) or as part of `npm run build:checkpoints`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { selectBackend } from '@/lib/tf/backend';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { VISION_SFT } from '@/lib/train/vision-config';
import { buildVisionSft } from '@/lib/train/vision-sft';

if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');

const { bytes, history } = await buildVisionSft((line) => console.log(JSON.stringify({ run: 'vision-sft', step: line.step, kind: line.kind, ...line.metrics })));
console.error(`vision-sft: after ${VISION_SFT.steps} steps ${JSON.stringify(history.filter((l) => l.kind === 'eval').at(-1)?.metrics)}`);
const target = path.join('public', CHECKPOINTS.vision_sft);
fs.writeFileSync(target, bytes);
console.error(`wrote ${target} (${bytes.length} bytes)`);
