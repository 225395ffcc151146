/**
 * Not a unit test: which tfjs kernels one trainer step runs, how many and how long each kind takes (tf.profile), after
 * warm-up steps, on wasm in Node; profile-worker.mjs runs the same in a Chromium worker (issue 50).
 *
 *   npx tsx scripts/probes/kernel-profile.ts grpo [steps=5] ['{"overrides":1}']     SHAPES=SplitV,Slice to list shapes
 */
import fs from 'node:fs';
import path from 'node:path';
import { printProfile, profileSteps } from './profile-steps';

const [name, stepsArg = '5', json = '{}'] = process.argv.slice(2);
const profile = await profileSteps(name, JSON.parse(json), +stepsArg, async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))), (process.env.SHAPES ?? '').split(','));
console.log(printProfile(`${name}/wasm in Node`, profile));
