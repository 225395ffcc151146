import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALL_LINEAR_MODULES,
  ATTENTION_MODULES,
  baseWeightBytes,
  DQ_BLOCK,
  findModel,
  loraBudget,
  modelParams,
  moduleShapes,
  NF4_BLOCK,
  quantizedMatrixBytes,
  type BasePrecision,
  type LoraModule,
  type ModelPreset,
} from '@/lib/lora/budget';
import { formatBytes, formatCount, formatGiB, formatPercent } from '@/lib/lora/format';
import { loraScaling } from '@/lib/rl/lora';

// Every parameter count, byte size and percentage printed in chapter 2 is recomputed here from lib/lora.
const mdx = fs.readFileSync(path.join(__dirname, '../../content/chapters/02-sft-lora.mdx'), 'utf8');
const qwen = findModel('qwen3-0.6b');
const llama = findModel('llama-3.1-8b');
const b = (model: ModelPreset, targets: readonly LoraModule[], r: number, base: BasePrecision = 'bf16') => loraBudget({ model, targets, r, base });

/** Every number the chapter may print, as it must be printed. */
const checked = new Set<string>();
const v = (s: string) => (checked.add(s), s);
const count = (n: number) => v(formatCount(n));
const bytes = (n: number) => v(formatBytes(n));

describe('chapter 2 prints the numbers lib/lora computes', () => {
  it('the 4096 × 4096 example', () => {
    // r·(d + d) = 16·8192, against d·d; the ratio printed to two decimals
    expect(mdx).toContain(`16 · (4096 + 4096) = ${count(16 * 8192)} parameters instead of ${count(4096 * 4096)}, about ${v(`${((100 * 16 * 8192) / 4096 ** 2).toFixed(2)}%`)}`);
  });

  it('the architecture table', () => {
    const row = (label: string, f: (m: ModelPreset) => string) => `| ${label} | ${f(qwen)} | ${f(llama)} |`;
    expect(mdx).toContain(row('layers', (m) => String(m.layers)));
    expect(mdx).toContain(row('hidden size', (m) => count(m.hidden)));
    expect(mdx).toContain(row('MLP (intermediate) size', (m) => count(m.intermediate)));
    expect(mdx).toContain(row('attention heads × head dimension', (m) => `${m.heads} × ${m.headDim}`));
    expect(mdx).toContain(row('key/value heads', (m) => String(m.kvHeads)));
    expect(mdx).toContain(row('vocabulary', (m) => count(m.vocab)));
    expect(qwen.tiedEmbeddings && !llama.tiedEmbeddings).toBe(true);
    const s = moduleShapes(qwen);
    expect(mdx).toContain(`\`q_proj\` maps ${s.q_proj.dIn} → ${s.q_proj.dOut} and \`o_proj\` maps ${s.o_proj.dIn} → ${s.o_proj.dOut}`);
  });

  it('the trainable-parameter table', () => {
    for (const [model, rows] of [
      [qwen, [['q, k, v, o', ATTENTION_MODULES], ['all linear', ALL_LINEAR_MODULES]]],
      [llama, [['q, k, v, o', ATTENTION_MODULES], ['all linear', ALL_LINEAR_MODULES]]],
    ] as const) {
      for (const [label, targets] of rows) {
        const r8 = b(model, targets, 8);
        const r16 = b(model, targets, 16);
        expect(mdx).toContain(`| ${model.name} | ${label} | ${count(r8.trainable)} | ${count(r16.trainable)} | ${v(formatPercent(r16.trainablePercent))} |`);
      }
    }
    expect(mdx).toContain(`totals of ${count(modelParams(qwen).total)} parameters for Qwen3-0.6B`);
    expect(mdx).toContain(`and ${count(modelParams(llama).total)} for Llama-3.1-8B agree with the model cards' ${qwen.published.total}B and ${llama.published.total}B`);
  });

  it('the ratios stated in words', () => {
    const ratio = (m: ModelPreset) => b(m, ALL_LINEAR_MODULES, 16).trainable / b(m, ATTENTION_MODULES, 16).trainable;
    expect(mdx).toContain('more than doubles the adapter of Qwen3-0.6B and triples that of Llama-3.1-8B');
    expect(ratio(qwen)).toBeGreaterThan(2);
    expect(ratio(qwen)).toBeLessThan(2.5);
    expect(Math.abs(ratio(llama) - 3)).toBeLessThan(0.1);
    expect(mdx).toContain(`whose MLP is ${llama.intermediate / llama.hidden} times wider than its hidden size`);
  });

  it('the memory table (all linear, r = 16)', () => {
    const [q, l] = [b(qwen, ALL_LINEAR_MODULES, 16), b(llama, ALL_LINEAR_MODULES, 16)];
    const [qq, lq] = [b(qwen, ALL_LINEAR_MODULES, 16, 'nf4-dq'), b(llama, ALL_LINEAR_MODULES, 16, 'nf4-dq')];
    const row = (label: string, x: number, y: number) => `| ${label} | ${bytes(x)} | ${bytes(y)} |`;
    expect(mdx).toContain(row('full fine-tuning', q.fullFineTuning.total, l.fullFineTuning.total));
    expect(mdx).toContain(row('LoRA, bf16 base: base weights', q.memory.baseWeights, l.memory.baseWeights));
    const adapter = (x: typeof q) => x.memory.adapterWeights + x.memory.adapterGrads + x.memory.adamStates;
    expect(mdx).toContain(row('LoRA, bf16 base: adapter state', adapter(q), adapter(l)));
    expect(adapter(q)).toBe(16 * q.trainable);
    expect(mdx).toContain(row('LoRA, bf16 base: total', q.memory.total, l.memory.total));
    expect(mdx).toContain(row('QLoRA (NF4, double quantisation): base weights', qq.memory.baseWeights, lq.memory.baseWeights));
    expect(mdx).toContain(row('QLoRA: total', qq.memory.total, lq.memory.total));
    expect(mdx).toContain(`because ${count(modelParams(qwen).embedding)} of its parameters sit in the embedding`);
  });

  it('full fine-tuning of Llama-3.1-8B', () => {
    const ft = b(llama, ATTENTION_MODULES, 16).fullFineTuning.total;
    expect(mdx).toContain(`whose ${count(modelParams(llama).total)} parameters we count from its configuration below, that is ${v(formatGiB(ft))} of static state`);
    expect(mdx).toContain(`for Llama-3.1-8B that is ${formatGiB(ft)}.`);
  });

  it('the adapter file and the takeaways', () => {
    const all = b(llama, ALL_LINEAR_MODULES, 16);
    // PEFT keeps the adapter in fp32 (autocast_adapter_dtype=True) and saves it as trained: 4 bytes a parameter (issue 39).
    expect(mdx).toContain(`adapter for Llama-3.1-8B is ${count(all.trainable)} parameters, ${bytes(4 * all.trainable)} in fp32, against ${formatGiB(baseWeightBytes(llama, 'bf16'))} for the model in bf16`);
    expect(mdx).toContain(`${formatCount(all.trainable)} trainable parameters (${formatPercent(all.trainablePercent)}) for Llama-3.1-8B at r = 16 on all linear layers`);
  });

  it('the QLoRA quiz', () => {
    const p = modelParams(llama);
    const shapes = moduleShapes(llama);
    const linear = llama.layers * ALL_LINEAR_MODULES.reduce((sum, m) => sum + quantizedMatrixBytes(shapes[m].dIn * shapes[m].dOut, true), 0);
    const rest = p.total - p.blockLinear;
    expect(mdx).toContain(`Llama-3.1-8B has ${count(p.total)} parameters, of which ${count(p.blockLinear)} are weights of the linear layers inside its ${llama.layers} blocks`);
    expect(mdx).toContain(`About ${v(formatGiB(p.total / 2))}: every parameter at 4 bits`);
    expect(mdx).toContain(`About ${v(formatGiB(linear))}: only the quantised linear layers count`);
    expect(mdx).toContain(`About ${v(formatGiB(baseWeightBytes(llama, 'nf4-dq')))}: the linear layers`);
    expect(mdx).toContain(`About ${v(formatGiB(2 * p.total))}: frozen weights stay in bf16`);
    expect(mdx).toContain(`The quantised linear weights take ${count(linear)} bytes`);
    expect(mdx).toContain(`${count(rest)} parameters, stay in bf16: ${count(2 * rest)} bytes. Together ${count(linear + 2 * rest)} bytes, ${formatGiB(linear + 2 * rest)}`);
  });

  it('the quantisation overheads', () => {
    const single = 32 / NF4_BLOCK;
    const double = 8 / NF4_BLOCK + 32 / (NF4_BLOCK * DQ_BLOCK);
    expect(mdx).toContain(`$32/64 = ${single}$ bits per weight`);
    expect(mdx).toContain(`$8/64 + 32/(64 \\cdot 256) \\approx ${double.toFixed(3)}$ bits per weight and the total to about ${(4 + double).toFixed(3)} bits`);
  });

  it('the scales in the α/r section and its quiz', () => {
    expect(mdx).toContain(`$\\alpha = 16$ gives $s = ${loraScaling(16, 8)}$ at $r = 8$ and $s = ${loraScaling(16, 64)}$ at $r = 64$`);
    expect(mdx).toContain(`s = 16/128 = ${loraScaling(16, 128)}`);
    const alphaRs = 16 / Math.sqrt(8);
    expect(mdx).toContain(`α = 16/√8 ≈ ${alphaRs.toFixed(2)}`);
    expect(loraScaling(alphaRs, 8, true)).toBeCloseTo(loraScaling(16, 8), 12);
    expect(mdx).toContain(`(${alphaRs.toFixed(2)}/√8 = ${loraScaling(16, 8)})`);
  });

  // Runs last: the tests above fill `checked` with every value they verified (vitest runs a file's tests in order).
  it('prints no parameter count, byte size or decimal percentage that is not checked above', () => {
    // Numbers that describe a scenario rather than a model (the forgetting quiz's dataset size).
    const SCENARIO = new Set(['3,000']);
    // The lab's measured figures are checked against its runs in tests/unit/train/lora-learning.test.ts.
    const scanned = mdx.slice(0, mdx.indexOf('### What the lab measures'));
    const printed = [
      ...scanned.matchAll(/\d{1,3}(?:,\d{3})+/g),
      ...scanned.matchAll(/\d+(?:\.\d+)? [GM]iB/g),
      ...scanned.matchAll(/\d+\.\d+%/g),
    ].map((m) => m[0]);
    expect(printed.length).toBeGreaterThan(40);
    const unchecked = printed.filter((s) => !checked.has(s) && !SCENARIO.has(s));
    expect(unchecked).toEqual([]);
  });
});
