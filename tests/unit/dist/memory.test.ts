import { describe, expect, it } from 'vitest';
import { activationsPerLayer, DEFAULT_LAYOUT, findModel, layoutProblems, memoryPerGpu, MODEL_PRESETS, paramCount, type Layout } from '@/lib/dist';

describe('model presets: parameters computed from the config.json shapes', () => {
  it('gives Llama-3.1-8B exactly the 8,030,261,248 parameters of its published weights', () => {
    expect(paramCount(findModel('llama-3.1-8b'))).toBe(8_030_261_248);
  });

  it('lands within 1% of the rounded published totals (0.6B, 70.6B) and Qwen3’s 0.44B without embeddings', () => {
    const near = (x: number, published: number) => Math.abs(x / published - 1);
    const qwen = findModel('qwen3-0.6b');
    expect(paramCount(qwen)).toBe(596_049_920);
    expect(near(paramCount(qwen), 0.6e9)).toBeLessThan(0.01);
    expect(near(paramCount(qwen) - qwen.vocab * qwen.hidden, 0.44e9)).toBeLessThan(0.01); // tied: one embedding
    expect(paramCount(findModel('llama-3.1-70b'))).toBe(70_553_706_496);
    expect(near(paramCount(findModel('llama-3.1-70b')), 70.6e9)).toBeLessThan(0.01);
  });

  it('names a source for every preset and refuses an unknown one', () => {
    for (const m of MODEL_PRESETS) expect(m.source).toMatch(/^https:\/\/huggingface\.co\/.+\/config\.json$/);
    expect(() => findModel('gpt-5')).toThrow(/unknown model "gpt-5"/);
  });
});

describe('activationsPerLayer: Korthikanti et al. 2022, Table 2', () => {
  // GPT-3 175B's layer: s = 2048, b = 1, h = 12288, a = 96, so 5as/h = 80 and sbh = 25,165,824.
  const gpt3 = { s: 2048, b: 1, h: 12288, a: 96 };
  const sbh = 25_165_824;
  it('is sbh(34 + 5as/h) without parallelism or recomputation', () => {
    expect(activationsPerLayer({ ...gpt3, t: 1, sp: false, recompute: 'none' })).toBe(sbh * 114);
  });
  it('is sbh(10 + 24/t + 5as/(ht)) with TP, and sbh(34 + 5as/h)/t with TP + SP', () => {
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: false, recompute: 'none' })).toBe(sbh * 23); // 10 + 3 + 10
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: true, recompute: 'none' })).toBe((sbh * 114) / 8);
  });
  it('drops the attention-score term with selective recomputation and keeps 2sbh with full recomputation', () => {
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: false, recompute: 'selective' })).toBe(sbh * 13);
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: true, recompute: 'selective' })).toBe((sbh * 34) / 8);
    expect(activationsPerLayer({ ...gpt3, t: 1, sp: false, recompute: 'full' })).toBe(2 * sbh);
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: true, recompute: 'full' })).toBe((2 * sbh) / 8);
  });
  it('keeps only the softmax output, 2as²b, without attention dropout (section 4: softmax 2as²b, mask as²b, dropout output 2as²b)', () => {
    // 2as/h = 32 for GPT-3's layer.
    expect(activationsPerLayer({ ...gpt3, t: 1, sp: false, recompute: 'none', attentionDropout: false })).toBe(sbh * 66);
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: false, recompute: 'none', attentionDropout: false })).toBe(sbh * 17); // 10 + 3 + 4
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: true, recompute: 'none', attentionDropout: false })).toBe((sbh * 66) / 8);
    expect(activationsPerLayer({ ...gpt3, t: 8, sp: false, recompute: 'selective', attentionDropout: false })).toBe(sbh * 13);
  });
  it('memoryPerGpu uses the no-dropout term for the presets, which have attention_dropout 0.0', () => {
    for (const m of MODEL_PRESETS) expect(m.attentionDropout).toBe(false);
    const r = memoryPerGpu({ ...DEFAULT_LAYOUT, recompute: 'none' });
    expect(r.activationsPerLayer).toBe(4096 * 4096 * (34 + 64)); // 2as/h = 2 · 32 · 4096 / 4096 = 64
  });
});

describe('memoryPerGpu', () => {
  it('adds up Llama-3.1-8B on 8 GPUs with ZeRO-1 and selective recomputation', () => {
    const r = memoryPerGpu(DEFAULT_LAYOUT);
    const psi = 8_030_261_248;
    expect(r.paramsPerGpu).toBe(psi);
    expect(r.weights).toBe(2 * psi);
    expect(r.gradients).toBe(2 * psi);
    expect(r.optimizer).toBe((12 * psi) / 8);
    // s = 4096, b = 1, h = 4096: 34 sbh = 570,425,344 bytes per layer, 32 layers, one micro-batch in flight.
    expect(r.activationsPerLayer).toBe(570_425_344);
    expect(r.activations).toBe(32 * 570_425_344);
    expect(r.total / 1e9).toBeCloseTo(62.42, 2);
    expect(r.fits).toBe(true);
    expect(r.gpus).toBe(8);
    expect(memoryPerGpu({ ...DEFAULT_LAYOUT, gpuGB: 48 }).fits).toBe(false);
  });

  it('splits Llama-3.1-70B over TP 8 × PP 4 and counts min(p, m) micro-batches in flight', () => {
    const layout: Layout = { ...DEFAULT_LAYOUT, model: 'llama-3.1-70b', dp: 2, tp: 8, pp: 4, sequenceParallel: true, microbatches: 16 };
    const r = memoryPerGpu(layout);
    // 20 layers per stage; the last stage also holds the output layer and the final norm.
    const layer = 855_654_400;
    expect(r.layersPerStage).toBe(20);
    expect(r.paramsPerGpu).toBe((20 * layer + 128_256 * 8192 + 8192) / 8);
    expect(r.inFlight).toBe(4);
    expect(r.activations).toBe(((34 * 4096 * 8192) / 8) * 20 * 4);
    expect(r.gpus).toBe(64);
    expect(memoryPerGpu({ ...layout, microbatches: 2 }).inFlight).toBe(2);
  });

  it('puts an uneven layer split on the fuller stage', () => {
    const r = memoryPerGpu({ ...DEFAULT_LAYOUT, model: 'qwen3-0.6b', pp: 3 }); // 28 layers: 10, 9, 9
    expect(r.layersPerStage).toBe(10);
  });

  it('explains impossible layouts instead of computing them', () => {
    expect(layoutProblems({ ...DEFAULT_LAYOUT, tp: 3 })).toEqual([
      'TP size 3 must divide the 32 attention heads and the 8 K/V heads of Llama-3.1-8B.',
    ]);
    expect(layoutProblems({ ...DEFAULT_LAYOUT, pp: 40 })[0]).toMatch(/more than the 32 layers/);
    expect(layoutProblems({ ...DEFAULT_LAYOUT, dp: 0, seqLen: 0 })).toHaveLength(2);
    expect(() => memoryPerGpu({ ...DEFAULT_LAYOUT, model: 'nope' })).toThrow(/unknown model/);
    expect(layoutProblems(DEFAULT_LAYOUT)).toEqual([]);
  });

  it('notes layouts that work on paper but not in common frameworks', () => {
    expect(memoryPerGpu({ ...DEFAULT_LAYOUT, pp: 2, zero: 3 }).notes.join(' ')).toMatch(/ZeRO stage 0 or 1/);
    expect(memoryPerGpu(DEFAULT_LAYOUT).notes).toEqual([]);
  });
});
