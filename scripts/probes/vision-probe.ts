/**
 * Not a unit test: the vision lab's GRPO phase from one SFT start, for several GRPO settings (tuning the preset).
 *
 *   npx tsx scripts/probes/vision-probe.ts SEED SFT_STEPS GRPO_STEPS EVAL_EVERY '{"base":"overrides"}' '[{"variant":1},…]'
 *
 * SFT runs once (the trainer's own phase), its weights are saved, and each variant's GRPO phase starts from them
 * (sft_steps 0, a fresh data stream). Prints one JSON line per evaluation, with the mean of frac_reward_zero_std and
 * reward over the steps since the last one, and wall time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { selectBackend } from '@/lib/tf/backend';
import { visionFactory } from '@/lib/train/vision-trainer';

const [seed, sftSteps, grpoSteps, evalEvery] = process.argv.slice(2, 6).map(Number);
const base = JSON.parse(process.argv[6] ?? '{}') as Record<string, unknown>;
const variants = JSON.parse(process.argv[7] ?? '[{}]') as Record<string, unknown>[];
await selectBackend({ requested: (process.env.BACKEND as 'wasm' | 'cpu') ?? 'wasm' });
const keys = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('eval/')).map(([k, v]) => [k.replace('eval/accuracy_', '').replace('eval/', ''), Math.round(v * 1000) / 10]));

let t0 = performance.now();
// The SFT start is cached (CACHE=dir): the same seed, steps and base settings give the same weights.
const cache = process.env.CACHE && path.join(process.env.CACHE, `sft-${seed}-${sftSteps}-${Buffer.from(JSON.stringify(base)).toString('hex')}.bin`);
let weights: Uint8Array;
if (cache && fs.existsSync(cache)) weights = new Uint8Array(fs.readFileSync(cache));
else {
  const sft = await visionFactory(null, { ...base, seed, sft_steps: sftSteps, max_steps: sftSteps });
  for (let s = 0; s < sftSteps; s++) await sft.trainStep();
  weights = await sft.save();
  sft.dispose();
  if (cache) fs.writeFileSync(cache, weights);
}
const probe = await visionFactory(weights, { ...base, seed, sft_steps: 0 });
const sftEval = await probe.evaluate();
probe.dispose();
console.log(JSON.stringify({ seed, phase: 'sft', steps: sftSteps, wall_s: Math.round((performance.now() - t0) / 100) / 10, ...keys(sftEval) }));

for (const v of variants) {
  t0 = performance.now();
  const tr = await visionFactory(weights, { ...base, ...v, seed, sft_steps: 0, max_steps: grpoSteps });
  let [z, r, n] = [0, 0, 0];
  for (let s = 1; s <= grpoSteps; s++) {
    const m = await tr.trainStep();
    z += m.frac_reward_zero_std ?? 0;
    r += m.reward ?? 0;
    n += 1;
    if (s % evalEvery === 0 || s === grpoSteps) {
      const e = await tr.evaluate();
      console.log(JSON.stringify({ seed, v, step: s, zero_std: Math.round((100 * z) / n), reward: Math.round((100 * r) / n), wall_s: Math.round((performance.now() - t0) / 100) / 10, lift: Math.round((e['eval/accuracy'] - sftEval['eval/accuracy']) * 1000) / 10, ...keys(e) }));
      [z, r, n] = [0, 0, 0];
    }
  }
  tr.dispose();
}
