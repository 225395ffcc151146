/**
 * Probe for the LoRA lab: fine-tune a strong addition model on subtraction (full FT or LoRA) and watch both tasks.
 * npx tsx scripts/probes/lora-probe.ts --init FILE [--peft] [--r N] [--alpha A] [--rslora] [--lr X] [--steps N] [--every N]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { evaluateOnTestSet } from '@/lib/train/lm-batch';
import { createSftTrainer } from '@/lib/train/sft-trainer';

const { values } = parseArgs({ options: { init: { type: 'string' }, peft: { type: 'boolean', default: false }, r: { type: 'string', default: '4' }, alpha: { type: 'string', default: '8' }, rslora: { type: 'boolean', default: false }, lr: { type: 'string', default: '3e-3' }, steps: { type: 'string', default: '300' }, every: { type: 'string', default: '50' } } });
await selectBackend({ requested: 'wasm', order: ['wasm'] });
const sub = createArithmeticTask({ digits: 2, operators: ['-'], scratchpad: true });
const add = createArithmeticTask({ digits: 2, operators: ['+'], scratchpad: true });
const base = loadTinyLM(new Uint8Array(fs.readFileSync(values.init!)));
const trainer = createSftTrainer(base, sub, { use_peft: values.peft, r: Number(values.r), lora_alpha: Number(values.alpha), use_rslora: values.rslora, learning_rate: Number(values.lr), eval_samples: 200 });
const addTest = add.testSet(200);
const t0 = performance.now();
const show = async (s: number, loss?: number) => {
  const e = await trainer.evaluate();
  const old = await evaluateOnTestSet(trainer.model, add, addTest);
  console.log(JSON.stringify({ step: s, loss: loss?.toFixed(3), sub: e['eval/accuracy'], add: old['eval/accuracy'], sec: ((performance.now() - t0) / 1000).toFixed(1), trainable: trainer.model.trainableParamCount() }));
};
await show(0);
for (let s = 1; s <= Number(values.steps); s++) {
  const m = await trainer.trainStep();
  if (s % Number(values.every) === 0) await show(s, m.loss);
}
