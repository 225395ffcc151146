/**
 * Not a test (issue 50): attention's batched products on the matmul kernel (ArlBatchMatMul), at the GRPO and vision
 * labs' shapes, best of many calls, against their FLOPs at the matmul rate measured here.
 *
 *   npx tsx scripts/probes/attention-matmul-bench.ts
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { batchMatMul, matMulKernelApplies } from '@/lib/models/matmul-kernel/batch-matmul';
import { matmulRate } from '../bench/flops';

await selectBackend({ requested: 'wasm' });
const rate = await matmulRate();
let total = 0;
for (const [lab, B, S] of [['grpo', 64, 21], ['vision', 256, 22]] as const) {
  const H = 4;
  const hd = 8;
  const q = tf.randomNormal([H, B, S, hd]) as tf.Tensor4D;
  const k = tf.randomNormal([H, B, S, hd]) as tf.Tensor4D;
  const p = tf.randomNormal([H, B, S, S]) as tf.Tensor4D;
  if (!matMulKernelApplies(q.shape, k.shape)) throw new Error('the kernel does not run here');
  // The forward's two products and the backward's four (ops.ts attentionWithGrad).
  const products: [string, tf.Tensor4D, tf.Tensor4D, boolean, boolean][] = [
    ['q·kᵀ', q, k, false, true],
    ['P·v', p, k, false, false],
    ['dy·vᵀ', q, k, false, true],
    ['dS·k', p, k, false, false],
    ['dSᵀ·q', p, q, true, false],
    ['Pᵀ·dy', p, q, true, false],
  ];
  for (const [label, a, b, ta, tb] of products) {
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      batchMatMul(a, b, ta, tb).dispose();
      times.push(performance.now() - t0);
    }
    const best = Math.min(...times);
    const [m, kk] = ta ? [a.shape[3], a.shape[2]] : [a.shape[2], a.shape[3]];
    const n = tb ? b.shape[2] : b.shape[3];
    const flops = 2 * H * B * m * kk * n;
    total += best;
    console.log(`${lab.padEnd(6)} ${label.padEnd(6)} [${H * B}: ${m}×${kk} · ${kk}×${n}]: best ${(best * 1000).toFixed(0)} µs, ${(flops / best / 1e6).toFixed(1)} GFLOP/s (${(best / (flops / (rate.gflops * 1e6))).toFixed(2)} × bound)`);
  }
  tf.dispose([q, k, p]);
}
console.log(`matmul rate ${rate.gflops.toFixed(1)} GFLOP/s; sum of bests ${total.toFixed(2)} ms`);
