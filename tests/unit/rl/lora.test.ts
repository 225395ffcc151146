import { describe, expect, it } from 'vitest';

import { loraScaling, loraTrainableParams } from '@/lib/rl/index';

describe('lora helpers', () => {
  it('loraScaling is α / r, or α / √r with rsLoRA', () => {
    expect(loraScaling(16, 8)).toBe(2);
    expect(loraScaling(16, 8, false)).toBe(2);
    expect(loraScaling(16, 16, true)).toBe(4);
    expect(loraScaling(8, 2, true)).toBeCloseTo(8 / Math.SQRT2, 12);
  });

  it('loraTrainableParams counts A [r, in] and B [out, r], plus B’s bias with loraBias', () => {
    expect(loraTrainableParams(64, 32, 4)).toBe(4 * 64 + 32 * 4);
    expect(loraTrainableParams(64, 32, 4, true)).toBe(4 * 64 + 32 * 4 + 32);
    expect(loraTrainableParams(1, 1, 1)).toBe(2);
  });

  it('rejects bad arguments', () => {
    expect(() => loraScaling(16, 0)).toThrow(/r must be a positive integer/);
    expect(() => loraScaling(16, 2.5)).toThrow(/r must be a positive integer/);
    expect(() => loraScaling(0, 4)).toThrow(/loraAlpha/);
    expect(() => loraTrainableParams(0, 4, 2)).toThrow(/inFeatures/);
    expect(() => loraTrainableParams(4, 4, -1)).toThrow(/r must be/);
  });
});
