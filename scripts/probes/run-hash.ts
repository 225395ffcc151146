/**
 * Not a test (issue 50): a hash of a trainer's first N steps, every metric but timings, the token view where the
 * trainer has one, and the trained weights, on wasm in Node: run it on two trees to check that a speed-up changed no
 * number.
 *
 *   npx tsx scripts/probes/run-hash.ts grpo [steps=20] ['{"overrides":1}']
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
const [name = 'grpo', n = '20', json = '{}'] = process.argv.slice(2);
await selectBackend({ requested: 'wasm' });
const { trainer } = await startTrainer(name as never, { overrides: JSON.parse(json), readCheckpoint: async (f: string) => new Uint8Array(fs.readFileSync(path.join('public', f))) });
const h = crypto.createHash('sha256');
const inspect = (trainer as unknown as { inspect?: () => Promise<{ tokenTerms?: unknown } | null> }).inspect;
for (let i = 0; i < +n; i++) {
  const metrics = await trainer.trainStep();
  const view = inspect ? await inspect() : null;
  h.update(JSON.stringify(view?.tokenTerms ?? null));
  const keys = Object.keys(metrics).filter((k) => !k.startsWith('timing/')).sort();
  h.update(JSON.stringify(keys.map((k) => [k, metrics[k as keyof typeof metrics]])));
}
// Trainers whose model is not exposed (team: several) hash their metrics only.
const variables = (trainer as unknown as { model?: { trainableVariables(): tf.Variable[] } }).model?.trainableVariables?.() ?? [];
for (const v of variables) h.update(Buffer.from(v.dataSync().buffer));
console.log(`${name} ${json}: ${variables.length} variables, hash ${h.digest('hex').slice(0, 16)}`);
process.exit(0);
