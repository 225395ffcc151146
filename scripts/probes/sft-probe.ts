/**
 * Not a unit test: the throwaway SFT probe used to choose the lab's default model (lib/models/presets.ts).
 * Masked cross-entropy on the completion tokens + Adam, greedy held-out accuracy every `every` steps.
 *
 *   npx tsx scripts/probes/sft-probe.ts --scratch=1 --d=32 --L=2 --H=4 --steps=500 --seed=1 [--backend=wasm]
 *
 * The real SFT loss lives in lib/rl/ and the trainer in lib/train/; this stays self-contained on purpose.
 */
import * as tf from '@tensorflow/tfjs';
import { generate } from '@/lib/models/generate';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { correctnessReward } from '@/lib/tasks/rewards';
import { selectBackend, type BackendName } from '@/lib/tf/backend';

const arg = (k: string, d: string) => process.argv.find((x) => x.startsWith(`--${k}=`))?.split('=')[1] ?? d;
const [steps, every, batch, seed, lr] = [+arg('steps', '500'), +arg('every', '50'), +arg('batch', '32'), +arg('seed', '1'), +arg('lr', '3e-3')];

await selectBackend({ requested: arg('backend', 'wasm') as BackendName });
const task = createArithmeticTask({ scratchpad: arg('scratch', '1') === '1' });
const config = configForTask(task, { d_model: +arg('d', '32'), n_layers: +arg('L', '2'), n_heads: +arg('H', '4') });
const model = createTinyLM(config, seed);
const [P, M, V] = [task.promptLength, task.maxCompletionLength, config.vocab_size];
const S = P + M - 1; // input length: the last completion token is never an input
console.log(`${tf.getBackend()} ${JSON.stringify(config)} params=${model.paramCount()} lr=${lr} batch=${batch}`);

const rng = createRng(seed);
const opt = tf.train.adam(lr);
function step(): tf.Scalar {
  const ids = new Int32Array(batch * S);
  const tgt = new Int32Array(batch * S);
  const mask = new Float32Array(batch * S);
  task.sample('train', batch, rng).forEach((p, i) => {
    const completion = task.encodeCompletion(p);
    const seq = [...task.encodePrompt(p), ...completion, ...new Array(M - completion.length + 1).fill(0)];
    for (let t = 0; t < S; t++) {
      ids[i * S + t] = seq[t];
      tgt[i * S + t] = seq[t + 1];
      mask[i * S + t] = t + 1 >= P && t + 1 < P + completion.length ? 1 : 0; // predicts a completion token
    }
  });
  return tf.tidy(() => {
    const x = tf.tensor2d(ids, [batch, S], 'int32');
    const y = tf.cast(tf.oneHot(tf.tensor2d(tgt, [batch, S], 'int32'), V), 'float32'); // [B, S, V]
    const m = tf.tensor2d(mask, [batch, S]);
    return opt.minimize(() => {
      const nll = tf.neg(tf.sum(tf.mul(y, tf.logSoftmax(model.forward(x, { training: true }).logits)), -1)); // [B, S]
      return tf.div(tf.sum(tf.mul(nll, m)), tf.sum(m)) as tf.Scalar;
    }, true, model.trainableVariables())!;
  });
}

const test = task.testSet(200);
async function accuracy(): Promise<number> {
  const g = await generate(model, test.map((p) => task.encodePrompt(p)), { max_completion_length: M, eos_id: 2, pad_id: 0, temperature: 0 }, rng);
  const r = correctnessReward(g.completions.map((c) => task.tokenizer.decode(c)), { answers: test.map((p) => p.answer) });
  return r.reduce((a, b) => a + b, 0) / r.length;
}

const curve: string[] = [];
let ms = 0;
for (let s = 1; s <= steps; s++) {
  const t0 = performance.now();
  const loss = step();
  const value = (await loss.data())[0];
  loss.dispose();
  ms += performance.now() - t0;
  if (s % every === 0) {
    const acc = await accuracy();
    curve.push(`${s}:${(100 * acc).toFixed(0)}%`);
    console.log(`step ${s} loss ${value.toFixed(3)} held-out acc ${(100 * acc).toFixed(1)}% ms/step ${(ms / every).toFixed(1)}`);
    ms = 0;
  }
}
console.log(`curve ${curve.join(' ')}`);
