/**
 * Not a test (issue 50): a dense layer's forward product (tf.fused.matMul with a bias) at the labs' shapes, with the
 * wasm fast paths on (our kernel, dense-kernel/dense-forward.ts) and off (XNNPACK), alternating, best of many calls
 * (robust to a busy machine); no read-back, so only the product is timed.
 *
 *   npx tsx scripts/probes/dense-forward-bench.ts
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { setWasmFastPaths, wasmFastPaths } from '@/lib/models/fast-paths';

await selectBackend({ requested: 'wasm' });
if (!wasmFastPaths()) throw new Error('the wasm fast paths do not run here');
const shapes: [string, number, number, number][] = [
  ['grpo qkv', 1344, 32, 96],
  ['grpo fc1', 1344, 32, 128],
  ['grpo fc2', 1344, 128, 32],
  ['sft qkv', 672, 32, 96],
  ['vision fc1', 5888, 32, 128],
];
for (const [label, n, inDim, outDim] of shapes) {
  const [x, w, b] = [tf.randomNormal([n, inDim]) as tf.Tensor2D, tf.randomNormal([inDim, outDim]) as tf.Tensor2D, tf.randomNormal([outDim])];
  const best = { on: Infinity, off: Infinity };
  for (let i = 0; i < 400; i++) {
    const on = i % 2 === 0;
    setWasmFastPaths(on);
    const t0 = performance.now();
    tf.fused.matMul({ a: x, b: w, bias: b }).dispose();
    const ms = performance.now() - t0;
    if (on) best.on = Math.min(best.on, ms);
    else best.off = Math.min(best.off, ms);
  }
  setWasmFastPaths(true);
  const gflops = (ms: number) => ((2 * n * inDim * outDim) / ms / 1e6).toFixed(1);
  console.log(`${label.padEnd(11)} [${n}, ${inDim}] → ${outDim}: ours ${(best.on * 1000).toFixed(0)} µs (${gflops(best.on)} GFLOP/s), XNNPACK ${(best.off * 1000).toFixed(0)} µs (${gflops(best.off)}): ${(100 * (1 - best.on / best.off)).toFixed(0)}% less`);
  tf.dispose([x, w, b]);
}
