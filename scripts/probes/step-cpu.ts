/**
 * Not a test (issue 50): a trainer's step as CPU time (process.cpuUsage, this process's threads) as well as wall time,
 * for comparing two versions of the code while other work shares the machine (wall time then measures the neighbours).
 *
 *   npx tsx scripts/probes/step-cpu.ts grpo [steps=30] ['{"overrides":1}']
 */
import fs from 'node:fs';
import path from 'node:path';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import type { TrainerName } from '@/lib/spec/registry';

const [name, stepsArg = '30', json = '{}'] = process.argv.slice(2);
await selectBackend({ requested: 'wasm' });
const { trainer } = await startTrainer(name as TrainerName, { overrides: JSON.parse(json), readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))) });
for (let i = 0; i < 5; i++) await trainer.trainStep();
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < +stepsArg; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await trainer.trainStep();
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${name}: median wall ${median(wall).toFixed(1)} ms, median CPU ${median(cpu).toFixed(1)} ms, min wall ${Math.min(...wall).toFixed(1)} ms over ${stepsArg} steps`);
trainer.dispose();
