// Not a test (issue 50): kernel-profile.ts's profile in a Chromium worker. Usage: npx tsx scripts/probes/profile-worker.mjs grpo [steps] ['{json}']
import { printProfile } from './profile-steps.ts';
import { runInChromiumWorker } from './chromium-worker.mjs';

const [trainer, stepsArg, json] = process.argv.slice(2);
const profile = await runInChromiumWorker('scripts/probes/profile-worker.ts', { trainer, overrides: JSON.parse(json ?? '{}'), steps: +(stepsArg ?? 5), shapes: (process.env.SHAPES ?? '').split(',') });
console.log(printProfile(`${trainer}/wasm in a Chromium worker`, profile));
