/**
 * Every number chapter 3 prints is recomputed here from lib/dist: if the code or the prose changes, this
 * fails instead of the chapter silently disagreeing with its own widgets.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  activationsPerLayer,
  DEFAULT_LAYOUT,
  findModel,
  memoryPerGpu,
  paramCount,
  pipelineBubble,
  ringAllReduceBytes,
  zeroMemory,
  type ZeroStage,
} from '@/lib/dist';

const chapter = fs.readFileSync('content/chapters/03-distributed-training.mdx', 'utf8');
const GB = 1e9;
const fixed = (x: number, digits: number) => x.toFixed(digits);
const pct = (f: number) => `${(100 * f).toFixed(1)}%`;
const expectText = (text: string) => expect(chapter, `chapter 3 should print "${text}"`).toContain(text);

const llama8 = findModel('llama-3.1-8b');
const psi = paramCount(llama8);

describe('chapter 3 prints the numbers lib/dist computes', () => {
  it("Llama-3.1-8B's parameter count and model states", () => {
    expectText(psi.toLocaleString('en-US').replace(/,/g, '{,}')); // 8{,}030{,}261{,}248 in KaTeX
    expectText(`$16\\Psi = ${fixed((16 * psi) / GB, 1)}$ GB`);
    expectText(`${fixed((16 * psi) / GB, 1)} GB for Llama-3.1-8B`);
  });

  it('the activation example (s = 4096, b = 1)', () => {
    const args = { s: 4096, b: 1, h: llama8.hidden, a: llama8.heads, t: 1, sp: false };
    // Llama has no attention dropout: the quadratic term is the softmax output alone, 2as²b (Korthikanti §4).
    expect(llama8.attentionDropout).toBe(false);
    expect((2 * llama8.heads * 4096) / llama8.hidden).toBe(64);
    expectText('$2as/h = 64$');
    const none = activationsPerLayer({ ...args, recompute: 'none', attentionDropout: false });
    expectText(`${fixed(none / GB, 2)} GB per layer, ${fixed((32 * none) / GB, 1)} GB for the 32 layers`);
    // The paper's GPT layer, with attention dropout, for contrast.
    expect((5 * llama8.heads * 4096) / llama8.hidden).toBe(160);
    const paper = activationsPerLayer({ ...args, recompute: 'none' });
    expectText(`With the paper's $5as/h = 160$ it would read ${fixed(paper / GB, 2)} GB per layer`);
    const selective = activationsPerLayer({ ...args, recompute: 'selective' });
    expectText(`${fixed(selective / GB, 2)} GB per layer and ${fixed((32 * selective) / GB, 1)} GB in all`);
  });

  it('the ring all-reduce of 8B gradients on 8 GPUs', () => {
    expectText(`each GPU sends ${fixed(ringAllReduceBytes({ workers: 8, bytes: 2 * psi }) / GB, 1)} GB per step`);
  });

  it("the ZeRO paper's example and the 8B table", () => {
    const paper = (stage: ZeroStage) => zeroMemory({ params: 7.5e9, dp: 64, stage }) / GB;
    expectText(`${fixed(paper(0), 0)} GB per GPU for plain DP, ${fixed(paper(1), 1)} GB with stage 1, ${fixed(paper(2), 1)} GB with stage 2 and ${fixed(paper(3), 2)} GB with stage 3`);
    const ours = (stage: ZeroStage) => zeroMemory({ params: psi, dp: 8, stage }) / GB;
    expectText(`| ${fixed(ours(0), 1)} GB |`);
    for (const stage of [1, 2, 3] as const) expectText(`| ${fixed(ours(stage), 2)} GB |`);
    expectText(`${fixed(ours(1), 2)} GB of model states`); // the quiz
  });

  it('the pipeline bubbles', () => {
    const b = (m: number, schedule: '1f1b' | 'interleaved', chunks = 2) => pipelineBubble({ stages: 4, microbatches: m, schedule, chunks });
    expectText(`${pct(b(8, '1f1b'))} of the time at $m = 8$ and ${pct(b(32, '1f1b'))} at $m = 32$`);
    expectText(`${pct(b(8, 'interleaved'))} for $p = 4$, $m = 8$ and $v = 2$`);
    // The quiz: p = 8, m = 24, v = 2.
    const q = (schedule: '1f1b' | 'interleaved') => pipelineBubble({ stages: 8, microbatches: 24, schedule, chunks: 2 });
    expect(q('1f1b')).toBeCloseTo(7 / 31, 12);
    expect(q('interleaved')).toBeCloseTo(7 / 55, 12);
    expectText(`7/31 ≈ ${Math.round(100 * q('1f1b'))}% and 7/55 ≈ ${Math.round(100 * q('interleaved'))}%`);
  });

  it('the two Llama-3.1-70B layouts on 64 GPUs', () => {
    const zero3 = memoryPerGpu({ ...DEFAULT_LAYOUT, model: 'llama-3.1-70b', dp: 64, zero: 3 });
    expectText(`${fixed(zero3.activations / GB, 1)} GB of activations even with selective recomputation`);
    expect(zero3.fits).toBe(false);
    const three = memoryPerGpu({ ...DEFAULT_LAYOUT, model: 'llama-3.1-70b', dp: 2, tp: 8, pp: 4, sequenceParallel: true, zero: 1, microbatches: 16 });
    expectText(`holds ${fixed(three.paramsPerGpu / 1e9, 2)} billion parameters and a total of ${fixed(three.total / GB, 1)} GB`);
    expect(three.gpus).toBe(64);
    expect(three.fits).toBe(true);
  });

  it('the KV cache per token and the weight sync of the 8B', () => {
    const kvBytes = 2 * llama8.layers * llama8.kvHeads * llama8.headDim * 2;
    expectText(`${Math.round(kvBytes / 1e3)} kB per token in 16 bits for Llama-3.1-8B`);
    expectText(`$2\\Psi$ bytes in 16 bits, ${fixed((2 * psi) / GB, 2)} GB for Llama-3.1-8B`);
  });
});
