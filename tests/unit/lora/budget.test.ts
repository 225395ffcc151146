import { describe, expect, it } from 'vitest';
import {
  ALL_LINEAR_MODULES,
  ATTENTION_MODULES,
  baseWeightBytes,
  findModel,
  loraBudget,
  quantizedMatrixBytes,
  type LoraBudgetInput,
} from '@/lib/lora/budget';
import { formatCount, formatGiB, formatPercent } from '@/lib/lora/format';

const qwen = findModel('qwen3-0.6b');
const llama = findModel('llama-3.1-8b');
const budget = (over: Partial<LoraBudgetInput> = {}) => loraBudget({ model: qwen, targets: ATTENTION_MODULES, r: 16, base: 'bf16', ...over });

describe('trainable parameters', () => {
  it('Qwen3-0.6B, q,k,v,o at r = 16', () => {
    // r·(d_in + d_out) per layer: q 16·(1024+2048) = 49,152; k 16·(1024+1024) = 32,768; v 32,768; o 49,152
    // sum 163,840 per layer × 28 layers = 4,587,520
    const b = budget();
    expect(b.modules.map((m) => [m.name, m.perLayer])).toEqual([
      ['q_proj', 49_152],
      ['k_proj', 32_768],
      ['v_proj', 32_768],
      ['o_proj', 49_152],
    ]);
    expect(b.trainable).toBe(4_587_520);
    // PEFT's trainable%: 4,587,520 / (596,049,920 + 4,587,520) = 0.76378…%
    expect(formatPercent(b.trainablePercent)).toBe('0.7638%');
  });

  it('Qwen3-0.6B at r = 8 is exactly half, and all linear layers add the MLP', () => {
    expect(budget({ r: 8 }).trainable).toBe(2_293_760);
    // MLP per layer at r = 16: gate 16·(1024+3072) = 65,536; up 65,536; down 16·(3072+1024) = 65,536 → 196,608
    // (163,840 + 196,608)·28 = 10,092,544
    expect(budget({ targets: ALL_LINEAR_MODULES }).trainable).toBe(10_092_544);
    expect(budget({ targets: ALL_LINEAR_MODULES, r: 8 }).trainable).toBe(5_046_272);
  });

  it('Llama-3.1-8B: all linear at r = 16 is the 41,943,040 PEFT prints (0.5196%)', () => {
    // per layer: q 16·8192 = 131,072; k = v = 16·5120 = 81,920; o 131,072 → 425,984
    //            gate = up = down = 16·(4096+14336) = 294,912 → 884,736; sum 1,310,720 × 32 = 41,943,040
    const all = loraBudget({ model: llama, targets: ALL_LINEAR_MODULES, r: 16, base: 'bf16' });
    expect(all.trainable).toBe(41_943_040);
    expect(formatPercent(all.trainablePercent)).toBe('0.5196%'); // 41,943,040 / 8,072,204,288
    const qkvo = loraBudget({ model: llama, targets: ATTENTION_MODULES, r: 8, base: 'bf16' });
    expect(qkvo.trainable).toBe(8 * (8192 + 5120 + 5120 + 8192) * 32); // 6,815,744
  });

  it('counts a module listed twice once, in PEFT order', () => {
    const b = budget({ targets: ['v_proj', 'q_proj', 'v_proj'] });
    expect(b.modules.map((m) => m.name)).toEqual(['q_proj', 'v_proj']);
    expect(b.trainable).toBe((49_152 + 32_768) * 28);
  });
});

describe('scaling', () => {
  it('is α/r by default and α/√r with rsLoRA; α defaults to 2r', () => {
    expect(budget({ loraAlpha: 32 }).scaling).toBe(2);
    expect(budget({ loraAlpha: 32, useRslora: true }).scaling).toBe(8); // 32/√16
    expect(budget({ r: 64 }).scaling).toBe(2); // α = 128
  });
});

describe('memory', () => {
  it('adapter state is 16 bytes per trainable parameter (fp32 weight, gradient, two Adam moments)', () => {
    const b = budget();
    expect(b.memory.adapterWeights).toBe(4 * 4_587_520);
    expect(b.memory.adapterGrads).toBe(4 * 4_587_520);
    expect(b.memory.adamStates).toBe(8 * 4_587_520);
    // bf16 base: 2 · 596,049,920 = 1,192,099,840; plus 16 · 4,587,520 = 73,400,320 → 1,265,500,160
    expect(b.memory.baseWeights).toBe(1_192_099_840);
    expect(b.memory.total).toBe(1_265_500_160);
    expect(budget({ base: 'fp32' }).memory.baseWeights).toBe(4 * 596_049_920);
  });

  it('full fine-tuning in mixed precision is 16 bytes per model parameter', () => {
    const ft = loraBudget({ model: llama, targets: ATTENTION_MODULES, r: 16, base: 'bf16' }).fullFineTuning;
    // 16 · 8,030,261,248 = 128,484,179,968 bytes = 119.66 GiB
    expect(ft.total).toBe(128_484_179_968);
    expect(ft.weights + ft.grads + ft.masterWeights + ft.adamStates).toBe(ft.total);
    expect(formatGiB(ft.total)).toBe('119.66 GiB');
  });

  it('NF4: 4 bits per weight plus an fp32 absmax per 64 weights; double quantisation 8-bit absmax + fp32 per 256', () => {
    // q_proj of Qwen3-0.6B: n = 2,097,152 weights → codes n/2 = 1,048,576 bytes, 32,768 blocks
    expect(quantizedMatrixBytes(2_097_152, false)).toBe(1_048_576 + 4 * 32_768); // 4.5 bits/weight
    expect(quantizedMatrixBytes(2_097_152, true)).toBe(1_048_576 + 32_768 + 4 * 128); // 4.127 bits/weight
    // A matrix whose size is not a multiple of the blocks: n = 100 → 50 bytes of codes, 2 blocks, 1 second-level block
    expect(quantizedMatrixBytes(100, false)).toBe(50 + 8);
    expect(quantizedMatrixBytes(100, true)).toBe(50 + 2 + 4);
  });

  it('quantises only the block linears: Qwen3-0.6B keeps its 155.6M-parameter embedding in bf16', () => {
    // linear weights 28 · 15,728,640 = 440,401,920 → nf4 bytes 220,200,960 + 4·6,881,280 = 247,726,080
    // the rest (embedding 155,582,464 + norms 65,536) in bf16: 2 · 155,648,000 = 311,296,000 → 559,022,080
    expect(baseWeightBytes(qwen, 'nf4')).toBe(559_022_080);
    // double quantised: 220,200,960 + 6,881,280 + 4·26,880 = 227,189,760 (+ 311,296,000) = 538,485,760
    expect(baseWeightBytes(qwen, 'nf4-dq')).toBe(538_485_760);
    expect(formatGiB(baseWeightBytes(qwen, 'bf16'))).toBe('1.11 GiB');
  });

  it('Llama-3.1-8B in NF4 with double quantisation', () => {
    // linear 6,979,321,856 weights: codes 3,489,660,928 + absmax 109,051,904 + fp32 4·425,984 = 3,600,416,768
    // embedding + lm_head + norms = 1,050,939,392 params in bf16 = 2,101,878,784 → 5,702,295,552 bytes
    expect(baseWeightBytes(llama, 'nf4-dq')).toBe(5_702_295_552);
    expect(formatGiB(5_702_295_552)).toBe('5.31 GiB');
  });
});

describe('bad input', () => {
  it.each([
    [{ r: 0 }, /rank r must be a whole number from 1 to 1024/],
    [{ r: 2.5 }, /rank r/],
    [{ r: 2048 }, /rank r/],
    [{ r: Number.NaN }, /rank r/],
    [{ targets: [] }, /at least one target module/],
    [{ targets: ['lm_head'] as never }, /Unknown target module "lm_head"/],
    [{ base: 'int8' as never }, /Unknown base precision/],
    [{ loraAlpha: 0 }, /lora_alpha must be a number > 0/],
    [{ model: { ...qwen, layers: 0 } }, /layers must be a positive integer/],
  ])('%o is refused with a clear message', (over, message) => {
    expect(() => budget(over as Partial<LoraBudgetInput>)).toThrow(message);
  });
});

describe('formatting', () => {
  it('groups digits without Intl', () => {
    expect(formatCount(4_587_520)).toBe('4,587,520');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(0)).toBe('0');
    expect(() => formatCount(1.5)).toThrow(/whole number/);
  });
});
