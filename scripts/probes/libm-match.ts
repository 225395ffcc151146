// Probe: do AssemblyScript's Mathf.exp and Mathf.log give tfjs-wasm's Exp and Log bit for bit? (Both are ports of
// musl's single-precision routines; if they agree, a fused kernel can compute a log-softmax with tfjs-wasm's numbers.)
// npx tsx scripts/probes/libm-match.ts [count]   (4,000,000 random floats each by default)
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import asc from 'assemblyscript/asc';

const SOURCE = `
export function expAll(p: usize, n: i32): void { for (let i = 0; i < n; i++) { const a = p + <usize>i * 4; store<f32>(a, Mathf.exp(load<f32>(a))); } }
export function logAll(p: usize, n: i32): void { for (let i = 0; i < n; i++) { const a = p + <usize>i * 4; store<f32>(a, Mathf.log(load<f32>(a))); } }
export function heapBase(): usize { return __heap_base; }
`;
let binary: Uint8Array | null = null;
const { error } = await asc.main(['probe.ts', '--optimizeLevel', '3', '--runtime', 'stub', '--noAssert', '--enable', 'simd', '--outFile', 'probe.wasm'], {
  readFile: (file: string, baseDir: string) => (file === 'probe.ts' ? SOURCE : fs.existsSync(`${baseDir}/${file}`) ? fs.readFileSync(`${baseDir}/${file}`, 'utf8') : null),
  writeFile: (file: string, contents: string | Uint8Array) => {
    if (file.endsWith('.wasm')) binary = contents as Uint8Array;
  },
  listFiles: () => [],
});
if (error || !binary) throw error ?? new Error('asc wrote no wasm');
const k = (await WebAssembly.instantiate(binary, {})).instance.exports as unknown as {
  memory: WebAssembly.Memory;
  heapBase(): number;
  expAll(p: number, n: number): void;
  logAll(p: number, n: number): void;
};
await tf.setBackend('wasm');
const n = Number(process.argv[2] ?? 4_000_000);
const at = Math.ceil(k.heapBase() / 16) * 16;
k.memory.grow(Math.ceil((at + n * 4) / 65536));
for (const [name, lo, hi] of [['exp', -90, 12], ['log', 1e-30, 50]] as const) {
  const x = new Float32Array(n);
  // exp: uniform over [lo, hi]; log: log-uniform, so every binade is tried.
  for (let i = 0; i < n; i++) x[i] = name === 'log' ? Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * Math.random()) : lo + (hi - lo) * Math.random();
  new Float32Array(k.memory.buffer, at, n).set(x);
  if (name === 'exp') k.expAll(at, n);
  else k.logAll(at, n);
  const mine = new Float32Array(k.memory.buffer, at, n);
  const ref = tf.tidy(() => (name === 'exp' ? tf.exp(tf.tensor1d(x)) : tf.log(tf.tensor1d(x))).dataSync());
  let differ = 0;
  for (let i = 0; i < n; i++) if (!Object.is(mine[i], ref[i])) differ++;
  console.log(`${name}: ${differ} of ${n} differ from tfjs-wasm's`);
}
