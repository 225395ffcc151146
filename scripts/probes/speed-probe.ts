/**
 * Not a unit test: ms per forward+backward+Adam step (batch 32) and per batched generation, for the lab model.
 *
 *   npx tsx scripts/probes/speed-probe.ts wasm 60 [d_model]
 *   npx tsx scripts/probes/speed-probe.ts cpu 5
 */
import * as tf from '@tensorflow/tfjs';
import { generate } from '@/lib/models/generate';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { selectBackend, type BackendName } from '@/lib/tf/backend';

const backend = (process.argv[2] ?? 'wasm') as BackendName;
const n = +(process.argv[3] ?? '30');
await selectBackend({ requested: backend });
const task = createArithmeticTask({ scratchpad: true });
const cfg = configForTask(task, { d_model: +(process.argv[4] ?? '32') });
const m = createTinyLM(cfg, 1);
const [B, T, V] = [32, task.promptLength + task.maxCompletionLength - 1, cfg.vocab_size];
const rng = createRng(1);
const ids = tf.tensor2d(Array.from({ length: B * T }, () => 3 + rng.int(V - 3)), [B, T], 'int32');
const tgt = tf.cast(tf.oneHot(tf.tensor2d(Array.from({ length: B * T }, () => rng.int(V)), [B, T], 'int32'), V), 'float32');
const opt = tf.train.adam(1e-3);
const step = () =>
  opt.minimize(() => tf.losses.softmaxCrossEntropy(tgt, m.forward(ids, { training: true }).logits) as tf.Scalar, true, m.trainableVariables())!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

for (let i = 0; i < 3; i++) await step().data();
const train: number[] = [];
for (let i = 0; i < n; i++) {
  const t = performance.now();
  const l = step();
  await l.data();
  l.dispose();
  train.push(performance.now() - t);
}
const prompts = task.sample('train', B, rng).map((p) => task.encodePrompt(p));
const gen: number[] = [];
for (let i = 0; i < Math.max(3, n / 10); i++) {
  const t = performance.now();
  await generate(m, prompts, { max_completion_length: task.maxCompletionLength, eos_id: 2, pad_id: 0 }, rng);
  gen.push(performance.now() - t);
}
console.log(
  `${tf.getBackend()} d_model=${cfg.d_model} params=${m.paramCount()} B=${B} T=${T}: train step median ` +
    `${median(train).toFixed(1)} ms (min ${Math.min(...train).toFixed(1)}); generate ${B}×${task.maxCompletionLength} ` +
    `median ${median(gen).toFixed(0)} ms`,
);
