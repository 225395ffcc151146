// Not a test: the lab's training loop (bare-worker.ts) in a Chromium worker on a blank page of the built site, without the lab page
// beside it, to compare with Node (node-gap.ts) and the lab page (lab-gap.mjs) for issue 50. Usage: node scripts/probes/bare-worker.mjs grpo '{json}'
import { runInChromiumWorker } from './chromium-worker.mjs';

const [trainer, json] = process.argv.slice(2);
const result = await runInChromiumWorker('scripts/probes/bare-worker.ts', { trainer, overrides: JSON.parse(json ?? '{}') });
console.log(JSON.stringify({ where: 'chromium bare worker', trainer, json, ...result }));
