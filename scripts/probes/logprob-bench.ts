// Probe: completionLogprobsAndEntropy forward + backward on the GRPO lab's shape, the fused kernels against the stock
// tfjs path (fast paths off), alternating, best and median of N calls each.  npx tsx scripts/probes/logprob-bench.ts [N]
import * as tf from '@tensorflow/tfjs';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { completionLogprobsAndEntropy } from '@/lib/rl/logprobs';
import { selectBackend } from '@/lib/tf/backend';

await selectBackend({ requested: 'wasm', order: ['wasm'] });
const [B, T, V] = [64, 21, 14];
const N = Number(process.argv[2] ?? 300);
const logits = tf.randomNormal([B, T, V]) as tf.Tensor3D;
const targets = tf.randomUniform([B, T], 0, V, 'int32') as tf.Tensor2D;
const step = () =>
  tf.tidy(() => {
    const g = tf.grad((x: tf.Tensor) => {
      const { logps, entropy } = completionLogprobsAndEntropy(x as tf.Tensor3D, targets);
      entropy.dataSync();
      return tf.sum(logps);
    })(logits);
    g.dataSync();
  });
const times: Record<'fused' | 'stock', number[]> = { fused: [], stock: [] };
for (let i = 0; i < N; i++) {
  for (const mode of ['fused', 'stock'] as const) {
    setWasmFastPaths(mode === 'fused');
    const t0 = performance.now();
    step();
    times[mode].push(performance.now() - t0);
  }
}
for (const [mode, t] of Object.entries(times)) {
  const sorted = t.slice(N / 5).sort((a, b) => a - b); // the first fifth warms up
  console.log(`${mode}: best ${sorted[0].toFixed(3)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} ms`);
}
