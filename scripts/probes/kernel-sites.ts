/**
 * Not a test (issue 50): where one trainer step's tfjs kernels come from: each call to the engine counted by the first
 * frame in lib/ on its stack (forward, or inside autodiff's backward pass), after warm-up steps, on wasm in Node. The
 * engine's own calls (clones of the tensors autodiff saves, gradient sums) count as tfjs-internal.
 *
 *   npx tsx scripts/probes/kernel-sites.ts grpo ['{"overrides":1}']
 */
import * as tf from '@tensorflow/tfjs';
import fs from 'node:fs';
import path from 'node:path';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
const [name = 'grpo', json = '{}'] = process.argv.slice(2);
await selectBackend({ requested: 'wasm' });
const { trainer } = await startTrainer(name as never, { overrides: JSON.parse(json), readCheckpoint: async (f: string) => new Uint8Array(fs.readFileSync(path.join('public', f))) });
for (let i = 0; i < 3; i++) await trainer.trainStep();
const engine = tf.engine() as unknown as { runKernel: (...a: unknown[]) => unknown };
const orig = engine.runKernel.bind(engine);
const sites = new Map<string, number>();
engine.runKernel = (...a: unknown[]) => {
  const frames = (new Error().stack ?? '').split('\n').slice(2).map((l) => l.trim());
  const own = frames.find((l) => l.includes('/work/main/lib/')) ?? 'tfjs-internal';
  const grad = frames.some((l) => l.includes('backpropagateGradients')) ? 'bwd' : 'fwd';
  const key = `${grad} ${own.replace(/.*\/work\/main\//, '').replace(/:\d+\)?$/, '')}`;
  sites.set(key, (sites.get(key) ?? 0) + 1);
  return orig(...a);
};
await trainer.trainStep();
let total = 0;
for (const [k, n] of [...sites.entries()].sort((a, b) => b[1] - a[1])) {
  console.log(n, k);
  total += n;
}
console.log(`${total} kernel calls in one step`);
process.exit(0);
