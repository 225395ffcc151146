import { describe, expect, it } from 'vitest';
import { billions } from '@/lib/lora/format';
import { findModel, MODEL_PRESETS, modelParams, moduleShapes } from '@/lib/lora/models';

describe('model presets', () => {
  it('gives Qwen3-0.6B a q_proj of 1024 → 2048 (head_dim 128 × 16 heads, not hidden/heads = 64)', () => {
    const s = moduleShapes(findModel('qwen3-0.6b'));
    expect(s.q_proj).toEqual({ dIn: 1024, dOut: 2048 });
    expect(s.k_proj).toEqual({ dIn: 1024, dOut: 1024 }); // 8 KV heads × 128
    expect(s.o_proj).toEqual({ dIn: 2048, dOut: 1024 });
    expect(s.down_proj).toEqual({ dIn: 3072, dOut: 1024 });
  });

  it('counts Qwen3-0.6B by hand: tied embeddings once, q/k norms included', () => {
    // Per layer, linear: q 1024·2048 + k 1024·1024 + v 1024·1024 + o 2048·1024 = 6,291,456
    //                    gate 1024·3072 + up 1024·3072 + down 3072·1024       = 9,437,184  → 15,728,640
    // Per layer, norms: 2·1024 (input, post-attention) + 2·128 (q_norm, k_norm) = 2,304
    // 28 layers: 28·(15,728,640 + 2,304) = 440,466,432; final norm +1,024 → 440,467,456 (non-embedding)
    // embed_tokens 151,936·1024 = 155,582,464, lm_head tied (0) → total 596,049,920
    const p = modelParams(findModel('qwen3-0.6b'));
    expect(p.blockLinear).toBe(28 * 15_728_640);
    expect(p.norms).toBe(28 * 2_304 + 1_024);
    expect(p.embedding).toBe(155_582_464);
    expect(p.lmHead).toBe(0);
    expect(p.nonEmbedding).toBe(440_467_456);
    expect(p.total).toBe(596_049_920);
  });

  it('counts Llama-3.1-8B by hand: untied lm_head, no q/k norms', () => {
    // Per layer, linear: q 4096·4096 = 16,777,216; k = v = 4096·1024 = 4,194,304; o 16,777,216 → 41,943,040
    //                    gate = up = down = 4096·14336 = 58,720,256 → 176,160,768; sum 218,103,808
    // norms 2·4096 = 8,192 per layer. 32 layers: 32·218,112,000 = 6,979,584,000; + final norm 4,096
    // embed_tokens = lm_head = 128,256·4096 = 525,336,576 each → total 8,030,261,248
    const p = modelParams(findModel('llama-3.1-8b'));
    expect(p.blockLinear).toBe(32 * 218_103_808);
    expect(p.embedding).toBe(525_336_576);
    expect(p.lmHead).toBe(525_336_576);
    expect(p.total).toBe(8_030_261_248);
  });

  // The model cards print rounded billions; the shape-computed count must round to the same figure and lie
  // within 1% of it (it does: 0.596 vs 0.6, 0.4405 vs 0.44, 8.191 vs 8.2, 6.946 vs 6.95, 8.030 vs 8).
  it.each(MODEL_PRESETS.map((m) => [m.name, m] as const))('%s matches its published parameter count', (_, m) => {
    const p = modelParams(m);
    const check = (computed: number, published: string) => {
      const decimals = published.includes('.') ? published.split('.')[1].length : 0;
      expect(billions(computed, decimals)).toBe(Number(published).toFixed(decimals));
      expect(Math.abs(computed / 1e9 - Number(published)) / Number(published)).toBeLessThan(0.01);
    };
    check(p.total, m.published.total);
    if (m.published.nonEmbedding) check(p.nonEmbedding, m.published.nonEmbedding);
    expect(m.configUrl).toMatch(/^https:\/\/huggingface\.co\/.+\/config\.json$/);
  });

  it('rejects an unknown model id with the list of known ones', () => {
    expect(() => findModel('gpt-5')).toThrow(/Unknown model "gpt-5".*qwen3-0\.6b/);
  });
});
