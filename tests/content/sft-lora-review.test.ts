import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileChapter } from '@/lib/content/compile';
import { findModel, modelParams } from '@/lib/lora/budget';
import { formatGiB } from '@/lib/lora/format';
import { loraScaling } from '@/lib/rl/lora';
import { adam } from '@/lib/train/optim';
import { sftPresets } from '@/lib/train/sft-config';

// Chapter 2's second-review additions (issue 39): how the first LoRA step scales with the rank under gradient descent
// and under Adam, the table and quizzes that print it, the lab's s·r, the GiB/GB units and the bf16 rounding remark.
// The one-step identities are checked on a real step of tfjs's SGD and of the course's own Adam (lib/train/optim.ts).
const mdx = fs.readFileSync('content/chapters/02-sft-lora.mdx', 'utf8');
const flat = mdx.replace(/\s+/g, ' ');
const num = (x: number) => String(Number(x.toPrecision(12)));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Deterministic uniform numbers (mulberry32), so the test does not depend on tfjs's seeding. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A [r, d] drawn as PEFT's default draws lora_A: uniform on ±1/√d, a spread that does not depend on r. */
function drawA(r: number, d: number, u: () => number): number[][] {
  const bound = 1 / Math.sqrt(d);
  return Array.from({ length: r }, () => Array.from({ length: d }, () => (2 * u() - 1) * bound));
}
const matVec = (A: number[][], x: number[]) => A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));

describe('chapter 2: the first LoRA step under gradient descent and under Adam', () => {
  const [dIn, dOut, eta] = [64, 32, 1e-3];

  /** One optimiser step on B from zero with loss gᵀ(s·B·A·x), so ∂L/∂h = g; returns the adapter's new output s·B₁·A·x. */
  function firstStep(optimizer: tf.Optimizer, A: number[][], x: number[], g: number[], s: number): number[] {
    const r = A.length;
    const B = tf.variable(tf.zeros([dOut, r]));
    const At = tf.tensor2d(A);
    const xt = tf.tensor2d(x, [dIn, 1]);
    const gt = tf.tensor2d(g, [1, dOut]);
    optimizer.minimize(() => tf.matMul(gt, tf.mul(s, tf.matMul(B, tf.matMul(At, xt)))).asScalar(), false, [B]);
    const out = Array.from(tf.mul(s, tf.matMul(B, tf.matMul(At, xt))).dataSync());
    tf.dispose([B, At, xt, gt]);
    optimizer.dispose();
    return out;
  }

  it('gradient descent adds −η s² ‖Ax‖² g; Adam adds −η s (Σ|aᵢᵀx|) sign(g)', () => {
    const u = rng(39);
    for (const r of [8, 128]) {
      const A = drawA(r, dIn, u);
      const x = Array.from({ length: dIn }, () => 2 * u() - 1);
      const g = Array.from({ length: dOut }, () => 2 * u() - 1);
      const s = loraScaling(16, r);
      const Ax = matVec(A, x);
      const sgd = firstStep(tf.train.sgd(eta), A, x, g, s);
      const sq = Ax.reduce((t, v) => t + v * v, 0);
      sgd.forEach((v, j) => expect(v).toBeCloseTo(-eta * s * s * sq * g[j], 9));
      const ad = firstStep(adam(eta), A, x, g, s);
      const abs = Ax.reduce((t, v) => t + Math.abs(v), 0);
      ad.forEach((v, j) => expect(Math.abs(v / (-eta * s * abs * Math.sign(g[j])) - 1)).toBeLessThan(1e-3));
    }
    expect(flat).toContain('so the adapter adds $-\\eta\\, s^2 \\lVert Ax \\rVert^2\\, g$');
    expect(flat).toContain('The adapter then adds $-\\eta\\, s \\left( \\sum_i \\lvert a_i^{\\top} x \\rvert \\right) \\operatorname{sign}(g)$');
  });

  it('both sums grow in proportion to r, not like √r', () => {
    // Averaged over draws of A and x, ‖Ax‖² and Σ|aᵢᵀx| at r = 128 are 16 times their values at r = 8 (√16 = 4 would be a random walk).
    const u = rng(2312);
    const mean = (r: number, f: (Ax: number[]) => number) => {
      let t = 0;
      for (let k = 0; k < 400; k++) t += f(matVec(drawA(r, dIn, u), Array.from({ length: dIn }, () => 2 * u() - 1)));
      return t / 400;
    };
    const sq = (Ax: number[]) => Ax.reduce((t, v) => t + v * v, 0);
    const abs = (Ax: number[]) => Ax.reduce((t, v) => t + Math.abs(v), 0);
    expect(mean(128, sq) / mean(8, sq)).toBeGreaterThan(14);
    expect(mean(128, sq) / mean(8, sq)).toBeLessThan(18);
    expect(mean(128, abs) / mean(8, abs)).toBeGreaterThan(14);
    expect(mean(128, abs) / mean(8, abs)).toBeLessThan(18);
    expect(flat).toContain('the rank-one pieces do not cancel like steps of a random walk, they add up');
  });

  it('the table of rules at r = 8 and r = 128', () => {
    const alphaRs = 16 / Math.sqrt(8);
    const rules = [
      { label: '$\\alpha/r$, $\\alpha = 16$', s: (r: number) => loraScaling(16, r) },
      { label: '$\\alpha = 2r$', s: (r: number) => loraScaling(2 * r, r) },
      { label: '$\\alpha/\\sqrt{r}$, $\\alpha = 16/\\sqrt{8}$', s: (r: number) => loraScaling(alphaRs, r, true) },
    ];
    for (const { label, s } of rules) {
      const gd = (r: number) => num(s(r) ** 2 * r);
      const ad = (r: number) => num(s(r) * r);
      expect(mdx).toContain(`| ${label} | ${num(s(8))} | ${num(s(128))} | ${gd(8)} → ${gd(128)} | ${ad(8)} → ${ad(128)} |`);
    }
    // The sentences under the table: 16 times smaller under gradient descent, √16 = 4 times larger under Adam with rsLoRA.
    expect((loraScaling(16, 8) ** 2 * 8) / (loraScaling(16, 128) ** 2 * 128)).toBe(16);
    expect(flat).toContain('$\\alpha/r$ makes the first step 16 times smaller at rank 128');
    expect((loraScaling(alphaRs, 128, true) * 128) / (loraScaling(alphaRs, 8, true) * 8)).toBeCloseTo(4, 12);
    expect(flat).toContain('grow like $\\sqrt{r}$, four times here');
  });

  it('the two quizzes', () => {
    const s8 = loraScaling(16, 8);
    const s128 = loraScaling(16, 128);
    expect(flat).toContain(`${num(s8 ** 2)} · 8 = ${num(s8 ** 2 * 8)} at rank 8 against ${num(s128 ** 2)} · 128 = ${num(s128 ** 2 * 128)} at rank 128`);
    const alphaRs = 16 / Math.sqrt(8);
    expect(flat).toContain(`gives s²·r = α² = ${num(alphaRs ** 2)} at every rank`);
    expect(flat).toContain(`s·r = α·√r, ${num(loraScaling(alphaRs, 8, true) * 8)} at r = 8 and ${num(loraScaling(alphaRs, 128, true) * 128)} at r = 128`);
    expect(flat).toContain(`Plain LoRA: s·r = α = ${num(s128 * 128)} at every rank`);
  });

  it('the lab: rank 4 and rank 16 take the same first step under Adam, rsLoRA four times it', () => {
    const sr = (name: 'lora_r4' | 'lora_r16' | 'lora_r16_rslora') => {
      const o = sftPresets[name].overrides as { r: number; lora_alpha: number; use_rslora?: boolean };
      return loraScaling(o.lora_alpha, o.r, o.use_rslora ?? false) * o.r;
    };
    expect(sr('lora_r4')).toBe(sr('lora_r16'));
    expect(flat).toContain(`both have $s\\,r = ${num(sr('lora_r4'))}$`);
    expect(flat).toContain(`gives $s\\,r = ${num(sr('lora_r16_rslora'))}$, four times the step`);
    expect(sr('lora_r16_rslora') / sr('lora_r16')).toBe(4);
  });
});

describe('chapter 2: units and precision', () => {
  it('16Ψ for Llama-3.1-8B in GiB and in the GB of chapter 3', () => {
    const bytes = 16 * modelParams(findModel('llama-3.1-8b')).total;
    expect(flat).toContain(`that is ${formatGiB(bytes)} of static state (${(bytes / 1e9).toFixed(1)} GB in the decimal gigabytes`);
    expect(fs.readFileSync('content/chapters/03-distributed-training.mdx', 'utf8')).toContain(`$16\\Psi = ${(bytes / 1e9).toFixed(1)}$ GB`);
  });

  it('an update of 1e-6 on a bf16 weight of order 1 rounds away', () => {
    // bf16 keeps the top 16 bits of a float32; round to nearest, ties to even.
    const bf16 = (x: number) => {
      const buf = new DataView(new ArrayBuffer(4));
      buf.setFloat32(0, x);
      const bits = buf.getUint32(0);
      const rounded = (bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000;
      buf.setUint32(0, rounded >>> 0);
      return buf.getFloat32(0);
    };
    expect(bf16(1 + 1e-6)).toBe(1);
    expect(bf16(1 + 2 ** -7)).not.toBe(1); // the spacing of bf16 just above 1
    expect(flat).toContain('an update of 1e-6 on a bf16 weight of order 1 rounds away');
  });
});

describe('chapter 2 compiles with its quizzes', () => {
  it('has the new Adam quiz and every quiz id once', async () => {
    const chapter = await compileChapter('sft-lora');
    expect(chapter.quizIds).toContain('ch02-alpha-adam');
    expect(chapter.quizIds).toContain('ch02-alpha-rank');
    expect(new Set(chapter.quizIds).size).toBe(chapter.quizIds.length);
  }, 60_000);
});
