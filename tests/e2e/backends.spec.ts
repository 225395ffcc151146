/**
 * WebGPU and WebGL compute what wasm computes. In Chromium with no GPU both run in software (SwiftShader, WebGPU behind
 * --enable-unsafe-webgpu): slow, but the same shaders a GPU runs. A forward pass, the SFT loss's gradient and two SFT
 * steps (backward, clipping, Adam) of the course's model, and the key/value-cache decoding that sampling runs, must agree with wasm within float32 tolerance;
 * the fused WebAssembly decoding kernel (what generate() runs) must compile in the browser and, on the weights each
 * backend reads back, give that backend's decoding probabilities. Weights after
 * Adam are not compared: its first step moves each weight by about lr·sign(g), so a gradient that is 1e-9 on one
 * backend and -1e-9 on another flips a whole step. The losses after the first step are compared: they caught WebGL's Adam
 * running with a different ε (lib/train/optim.ts, ADAM_EPSILON).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';
import type { BackendResult } from './backend-check/entry';
import { routeWhileOpen } from './routes';
import { budget } from './budget';

let bundle = '';

test.beforeAll(async () => {
  const out = await build({
    entryPoints: [path.resolve('tests/e2e/backend-check/entry.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    platform: 'browser',
    alias: { '@': path.resolve('.') },
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0].text;
});

const maxDiff = (a: number[], b: number[]) => {
  expect(a.length, 'compared arrays differ in length').toBe(b.length);
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
};
const maxAbs = (a: number[]) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
/** softmax over each row of `vocab` logits. */
const softmaxRows = (logits: number[], vocab: number) =>
  logits.flatMap((_, i) => {
    if (i % vocab !== 0) return [];
    const row = logits.slice(i, i + vocab);
    const max = Math.max(...row);
    const e = row.map((z) => Math.exp(z - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });

/** The fused kernel ran (WebAssembly SIMD in this browser) and gave this backend's tfjs decoding probabilities. */
function expectFusedMatches(result: BackendResult) {
  expect(result.fused, `${result.backend}: the fused decoding kernel stood aside`).not.toBeNull();
  const diff = maxDiff(result.fused!, softmaxRows(result.decoding!, result.vocab!));
  expect(diff, `${result.backend} fused decoding`).toBeLessThan(1e-5);
  return diff;
}

test('WebGPU and WebGL agree with wasm on a forward pass, cached decoding, a gradient and two training steps', async ({ page }) => {
  test.setTimeout(budget(240_000));
  await routeWhileOpen(page, '**/__backend-check.js', (route) => route.fulfill({ contentType: 'text/javascript', body: bundle }));
  await page.goto('/labs/');
  await page.addScriptTag({ url: '/__backend-check.js', type: 'module' });
  await page.waitForFunction(() => 'checkBackend' in globalThis);
  const run = (name: string) => page.evaluate((n) => (globalThis as unknown as { checkBackend(n: string): Promise<BackendResult> }).checkBackend(n), name);
  const wasm = await run('wasm');
  expect(wasm.skipped).toBeUndefined();
  console.log(`wasm: fused decoding kernel vs tfjs, max |Δ| probabilities ${expectFusedMatches(wasm).toExponential(1)}`);
  for (const name of ['webgpu', 'webgl']) {
    const other = await run(name);
    expect(other.skipped, `${name} could not start: ${other.skipped}`).toBeUndefined();
    expect(maxDiff(other.logits!, wasm.logits!), `${name} logits`).toBeLessThan(1e-4);
    expect(maxDiff(other.decoding!, wasm.decoding!), `${name} decoding logits`).toBeLessThan(1e-4);
    const fusedDiff = expectFusedMatches(other); // the kernel on the weights read back from this backend
    expect(maxDiff(other.losses!, wasm.losses!), `${name} losses`).toBeLessThan(1e-4);
    // Gradients are compared relative to the largest one: float32 sums in a different order differ near 1e-7 of it.
    const gradientError = maxDiff(other.gradients!, wasm.gradients!) / maxAbs(wasm.gradients!);
    expect(gradientError, `${name} gradients`).toBeLessThan(1e-4);
    console.log(`${name}: max |Δ| logits ${maxDiff(other.logits!, wasm.logits!).toExponential(1)}, decoding ${maxDiff(other.decoding!, wasm.decoding!).toExponential(1)}, losses ${maxDiff(other.losses!, wasm.losses!).toExponential(1)}, gradients ${gradientError.toExponential(1)} of the largest; fused kernel vs its tfjs decoding ${fusedDiff.toExponential(1)}`);
  }
});
