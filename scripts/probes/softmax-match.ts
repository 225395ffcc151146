/**
 * Not a test (issue 50): XNNPACK's softmax as tfjs-wasm 4.22 runs it, written out in JavaScript (float32 at every step),
 * against tf.softmax on wasm, for rows of every length 1…64 (3,000 random rows each, a third of them with masked −1e9
 * tails). This is how the attention kernel's softmax (lib/models/attention-kernel/assembly) was pinned down: the exp's
 * rr2_p5 approximation, the sum over whole vectors four lanes at a time, the lanes as (l0 + l2) + (l1 + l3), then the
 * last (length mod 4) exps added one by one (adding the last two as a pair, as one reading of the C source suggests,
 * differs in ~10% of rows), then each exp times 1/sum. Prints the rows that differ (none, on 2026-12-07).
 *
 *   npx tsx scripts/probes/softmax-match.ts
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';

await selectBackend({ requested: 'wasm' });
const f = Math.fround;
const bits = new DataView(new ArrayBuffer(4));
const fromBits = (u: number) => (bits.setUint32(0, u), bits.getFloat32(0));
const [LOG2E, MAGIC, LN2_HI, LN2_LO] = [0x3fb8aa3b, 0x4b40007f, 0xbf317200, 0xb5bfbe8e].map(fromBits);
const [C5, C4, C3, C2, C1, CUTOFF] = [0x3c07cfce, 0x3d2b9d0d, 0x3e2aad40, 0x3efffee3, 0x3f7ffffb, 0xc2aeac4f].map(fromBits);

function expMinusMax(x: number): number {
  let n = f(f(x * LOG2E) + MAGIC);
  bits.setFloat32(0, n);
  bits.setInt32(0, bits.getInt32(0) << 23);
  const s = bits.getFloat32(0);
  n = f(n - MAGIC);
  let t = f(f(n * LN2_HI) + x);
  t = f(f(n * LN2_LO) + t);
  let p = f(f(C5 * t) + C4);
  p = f(f(p * t) + C3);
  p = f(f(p * t) + C2);
  p = f(f(p * t) + C1);
  t = f(t * s);
  return x < CUTOFF ? 0 : f(f(t * p) + s);
}

function softmaxRow(row: Float32Array): Float32Array {
  const n = row.length;
  let max = row[0];
  for (const x of row) if (max < x) max = x;
  const e = row.map((x) => expMinusMax(f(x - max)));
  const lanes = [0, 0, 0, 0];
  let j = 0;
  for (; j + 4 <= n; j += 4) for (let l = 0; l < 4; l++) lanes[l] = f(lanes[l] + e[j + l]);
  let sum = f(f(lanes[0] + lanes[2]) + f(lanes[1] + lanes[3]));
  for (; j < n; j++) sum = f(sum + e[j]);
  const scale = f(1 / sum);
  return e.map((v) => f(v * scale));
}

let [rows, differing] = [0, 0];
for (let n = 1; n <= 64; n++) {
  const count = 3000;
  const values = new Float32Array(count * n);
  for (let r = 0; r < count; r++) {
    for (let j = 0; j < n; j++) values[r * n + j] = j > r % n && r % 3 === 0 ? -1e9 + (Math.random() - 0.5) * 40 : (Math.random() - 0.5) * 2 * (1 + (r % 7) * 3);
  }
  const expected = tf.tidy(() => tf.softmax(tf.tensor2d(values, [count, n])).dataSync() as Float32Array);
  for (let r = 0; r < count; r++) {
    const got = softmaxRow(values.subarray(r * n, (r + 1) * n));
    if (got.some((v, j) => !Object.is(v, expected[r * n + j]))) differing++;
  }
  rows += count;
}
console.log(`${differing} of ${rows} rows differ from tf.softmax`);
