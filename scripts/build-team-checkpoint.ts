/**
 * Rebuilds public/models/team-receiver-sft.arlw reproducibly (wasm, seed 0): the team lab's receiver after SFT on one
 * convention for reading the channel (lib/train/team-sft.ts). Run alone (`npx tsx scripts/build-team-checkpoint.ts`)
 * or as the last part of `npm run build:checkpoints`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createTeamTask } from '@/lib/tasks/team';
import { selectBackend } from '@/lib/tf/backend';
import { resolve } from '@/lib/train/config';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { TrainingRun } from '@/lib/train/run';
import { sftSchema } from '@/lib/train/sft-config';
import { sftTrainerOn } from '@/lib/train/sft-trainer';
import { TEAM_RECEIVER_SFT, teamReceiverSftSource } from '@/lib/train/team-sft';
import { receiverModelConfig } from '@/lib/train/team-trainer';

if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');

const task = createTeamTask();
const receiver = createTinyLM(receiverModelConfig(task), 0);
const sft = sftTrainerOn(receiver, teamReceiverSftSource(task, { blankRate: TEAM_RECEIVER_SFT.blankRate, evalSamples: 200 }), resolve(sftSchema, { max_steps: TEAM_RECEIVER_SFT.steps, seed: 0 }));
const training = new TrainingRun(sft, {
  maxSteps: TEAM_RECEIVER_SFT.steps,
  evalEvery: 50,
  onLog: (line) => console.log(JSON.stringify({ run: 'team-receiver-sft', step: line.step, kind: line.kind, ...line.metrics })),
});
if ((await training.run()) !== 'done') throw new Error(training.error ?? 'team-receiver-sft did not finish');
console.error(`team-receiver-sft: after ${TEAM_RECEIVER_SFT.steps} steps ${JSON.stringify(training.history.filter((l) => l.kind === 'eval').at(-1)?.metrics)}`);
const target = path.join('public', CHECKPOINTS.team_receiver_sft);
const bytes = await saveTinyLM(receiver);
fs.writeFileSync(target, bytes);
console.error(`wrote ${target} (${bytes.length} bytes, ${receiver.paramCount()} parameters)`);
sft.dispose();
receiver.dispose();
