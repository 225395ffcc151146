/**
 * Probe: how fast the agent model learns tool use by SFT. Prints eval metrics every --every steps.
 * npx tsx scripts/probes/agent-sft-probe.ts [--steps N] [--rate R] [--lr X] [--seed S] [--every N]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';
import { agentSftSource } from '@/lib/train/agent-trainer';
import { resolve } from '@/lib/train/config';
import { agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { sftSchema } from '@/lib/train/sft-config';
import { sftTrainerOn } from '@/lib/train/sft-trainer';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '600' }, rate: { type: 'string', default: '0.5' }, 'easy-rate': { type: 'string' }, lr: { type: 'string', default: '3e-3' }, seed: { type: 'string', default: '0' }, every: { type: 'string', default: '100' }, batch: { type: 'string', default: '32' }, save: { type: 'string' }, 'save-at': { type: 'string' } } });
await selectBackend({ requested: 'wasm', order: ['wasm'] });
const task = createAgentLabTask();
const model = createTinyLM(agentModelConfig(task), Number(values.seed));
const config = resolve(sftSchema, { learning_rate: Number(values.lr), seed: Number(values.seed), per_device_train_batch_size: Number(values.batch) });
const trainer = sftTrainerOn(model, agentSftSource(task, { toolRate: Number(values.rate), easyToolRate: values['easy-rate'] === undefined ? undefined : Number(values['easy-rate']), evalSamples: 200 }), config);
const t0 = performance.now();
for (let s = 1; s <= Number(values.steps); s++) {
  const m = await trainer.trainStep();
  if (s % Number(values.every) === 0) {
    const e = await trainer.evaluate();
    if (values.save && String(s) === values['save-at']) fs.writeFileSync(values.save, await saveTinyLM(model));
    console.log(JSON.stringify({ step: s, loss: +m.loss.toFixed(3), sec: +((performance.now() - t0) / 1000).toFixed(1), ...Object.fromEntries(Object.entries(e).map(([k, v]) => [k.replace('eval/', ''), +v.toFixed(3)])) }));
  }
}
