/**
 * Not a test (issue 50): the dense layer's backward kernel (ArlDenseGrad) alone, at the GRPO and vision labs' shapes,
 * best of many calls (robust to a busy machine), against its FLOPs at the matmul rate measured here.
 *
 *   npx tsx scripts/probes/dense-grad-bench.ts
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { denseGrad, denseGradApplies } from '@/lib/models/dense-kernel/dense-grad';
import { matmulRate } from '../bench/flops';

await selectBackend({ requested: 'wasm' });
if (!denseGradApplies()) throw new Error('the dense kernel does not run here');
const rate = await matmulRate();
const shapes: [string, number, number, number, boolean][] = [
  ['grpo qkv', 1344, 32, 96, false],
  ['grpo fc1', 1344, 32, 128, true],
  ['grpo fc2', 1344, 128, 32, false],
  ['vision qkv', 5888, 32, 96, false],
  ['vision fc1', 5888, 32, 128, true],
  ['vision fc2', 5888, 128, 32, false],
];
let total = 0;
for (const [label, n, inDim, outDim, relu] of shapes) {
  const x = tf.randomNormal([n, inDim]) as tf.Tensor2D;
  const w = tf.randomNormal([inDim, outDim]) as tf.Tensor2D;
  const dy = tf.randomNormal([n, outDim]) as tf.Tensor2D;
  const y = relu ? (tf.relu(tf.randomNormal([n, outDim])) as tf.Tensor2D) : null;
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    tf.dispose(denseGrad(dy, x, w, y, true));
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  const flops = 4 * n * inDim * outDim;
  total += best;
  console.log(`${label.padEnd(11)} [${n}, ${inDim}] → ${outDim}${relu ? ' relu' : ''}: best ${(best * 1000).toFixed(0)} µs, ${(flops / best / 1e6).toFixed(1)} GFLOP/s (${(best / (flops / (rate.gflops * 1e6))).toFixed(2)} × bound)`);
  tf.dispose([x, w, dy, ...(y ? [y] : [])]);
}
console.log(`matmul rate ${rate.gflops.toFixed(1)} GFLOP/s; sum of bests ${total.toFixed(2)} ms`);
