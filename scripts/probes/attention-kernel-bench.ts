/**
 * Not a test (issue 50): a layer's three attention kernels (lib/models/attention-kernel: the probabilities, softmax
 * included; the mixing; the backward pass) at the GRPO and vision labs' shapes with the causal mask, best and median of
 * many calls each.
 *
 *   npx tsx scripts/probes/attention-kernel-bench.ts
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { fusedAttentionApplies } from '@/lib/models/attention-kernel/attention';

await selectBackend({ requested: 'wasm' });
if (!fusedAttentionApplies()) throw new Error('the attention kernels do not run here');
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `best ${(sorted[0] * 1000).toFixed(0)} µs, median ${(sorted[sorted.length >> 1] * 1000).toFixed(0)} µs`;
};
for (const [lab, B, S] of [['grpo', 64, 21], ['vision', 256, 22]] as const) {
  const [H, hd] = [4, 8];
  const D = H * hd;
  const attrs = { B, S, H, hd, scale: 1 / Math.sqrt(hd) };
  const qkv = tf.randomNormal([B * S, 3 * D]);
  const dy = tf.randomNormal([B * S, D]);
  const mask = tf.tensor2d(Array.from({ length: S * S }, (_, e) => (e % S > Math.floor(e / S) ? -1e9 : 0)), [S, S]);
  const run = (name: string, inputs: Record<string, tf.Tensor>) => tf.engine().runKernel(name, inputs, attrs) as tf.Tensor;
  const probs = run('ArlAttentionProbs', { qkv, mask });
  const calls: [string, () => tf.Tensor][] = [
    ['probs', () => run('ArlAttentionProbs', { qkv, mask })],
    ['mix', () => run('ArlAttentionMix', { qkv, probs })],
    ['grad', () => run('ArlAttentionGrad', { dy, qkv, probs })],
  ];
  for (const [label, call] of calls) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      call().dispose();
      times.push(performance.now() - t0);
    }
    console.log(`${lab.padEnd(6)} [B ${B}, S ${S}, H ${H}, hd ${hd}] ${label.padEnd(8)} ${stats(times)}`);
  }
  tf.dispose([qkv, dy, mask, probs]);
}
