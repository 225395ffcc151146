/**
 * Chapter 3's corrections from issue 39, recomputed: the communication volume in bytes, the quadratic attention
 * term without attention dropout, ZeRO-3's share of Llama-3.1-70B on 64 GPUs, the ZeRO paper's 1.88/1.9 GB, the
 * GB/GiB units, and TRL's weight sync under ZeRO-3 with PEFT. Each printed number is computed here from lib/dist
 * (or from the formula where lib/dist has none) and looked for in the chapter, so prose and code cannot drift.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activationsPerLayer, findModel, paramCount, pipelineBubble, ringAllReduceBytes, zeroCommunication, zeroMemory } from '@/lib/dist';
import { expectPrinted } from './printed-numbers';

const chapter = fs.readFileSync('content/chapters/03-distributed-training.mdx', 'utf8');
const GB = 1e9;
const llama8 = findModel('llama-3.1-8b');
const psi = paramCount(llama8);
const llama70 = findModel('llama-3.1-70b');
const psi70 = paramCount(llama70);

describe('chapter 3: communication in values and in bytes (ZeRO §7)', () => {
  it('DP and ZeRO-1/2 send 2Ψ values, 4Ψ bytes in 16 bits; the ring on 8 GPUs makes it 3.5Ψ bytes, 28.1 GB', () => {
    // lib/dist counts values: 2Ψ(N−1)/N for stages 0–2, 3Ψ(N−1)/N for stage 3.
    for (const stage of [0, 1, 2] as const) expect(zeroCommunication({ params: psi, dp: 8, stage })).toBeCloseTo((2 * psi * 7) / 8, 0);
    expect(zeroCommunication({ params: psi, dp: 8, stage: 3 })).toBeCloseTo((3 * psi * 7) / 8, 0);
    const ring = ringAllReduceBytes({ workers: 8, bytes: 2 * psi });
    expect(ring / psi).toBe(3.5);
    // Bytes = values × 2 for 16-bit gradients and weights.
    expect((2 * zeroCommunication({ params: psi, dp: 8, stage: 1 })) / psi).toBe(3.5);
    expectPrinted(chapter, '$2 \\times \\tfrac{7}{8} \\times 2\\Psi = 3.5\\Psi$', [null, 7, 8, null, 3.5]);
    expectPrinted(chapter, 'each GPU sends 28.1 GB per step', [ring / GB]);
    expectPrinted(chapter, 'that is $4\\Psi$ bytes per GPU and step', [2 * 2]);
    expectPrinted(chapter, 'makes it the $3.5\\Psi$ bytes, 28.1 GB', [ring / psi, ring / GB]);
    expectPrinted(chapter, 'puts at $3\\Psi$ values, $6\\Psi$ bytes in 16 bits: 1.5 times', [3, 2 * 3, 16, 3 / 2]);
    expect(chapter).toContain('sends the same 2Ψ values per step as plain DP, 4Ψ bytes in 16 bits');
    expect(chapter).toContain('(3Ψ values, 6Ψ bytes, in all)');
    expect(chapter).not.toMatch(/same 2Ψ per step|\$2\\Psi\$ per GPU and step/);
  });
});

describe('chapter 3: the quadratic attention term (Korthikanti et al. §4)', () => {
  const args = { s: 4096, b: 1, h: llama8.hidden, a: llama8.heads, t: 1, sp: false, recompute: 'none' as const };
  const sbh = 4096 * llama8.hidden;
  it('is softmax output + dropout mask + dropout output = 2 + 1 + 2 bytes per score with dropout, 2 without', () => {
    const withDropout = activationsPerLayer(args) - 34 * sbh;
    const without = activationsPerLayer({ ...args, attentionDropout: false }) - 34 * sbh;
    expect(withDropout).toBe((2 + 1 + 2) * llama8.heads * 4096 * 4096);
    expect(without).toBe(2 * llama8.heads * 4096 * 4096);
    expect(withDropout / without).toBe(2.5);
    expect(chapter).toContain('the paper\'s 5 overstates it 2.5 times for these models');
    expect(chapter).not.toContain('the attention scores and their softmax');
  });
  it('prints the no-dropout figures for Llama-3.1-8B, and the memory calculator uses them', () => {
    expect(llama8.attentionDropout).toBe(false);
    const perLayer = activationsPerLayer({ ...args, attentionDropout: false });
    expectPrinted(chapter, '$2as/h = 64$, almost twice the linear part: 1.64 GB per layer, 52.6 GB for the 32 layers', [
      2,
      (2 * llama8.heads * 4096) / llama8.hidden,
      perLayer / GB,
      (llama8.layers * perLayer) / GB,
      llama8.layers,
    ]);
    expect(((2 * llama8.heads * 4096) / llama8.hidden) / 34).toBeGreaterThan(1.8); // "almost twice"
    expect(((2 * llama8.heads * 4096) / llama8.hidden) / 34).toBeLessThan(2);
    expectPrinted(chapter, "With the paper's $5as/h = 160$ it would read 3.25 GB per layer", [5, 160, activationsPerLayer(args) / GB]);
  });
});

describe('chapter 3: model states and units', () => {
  it('ZeRO-3 alone leaves 16Ψ/64 = 17.6 GB of Llama-3.1-70B per GPU', () => {
    const perGpu = zeroMemory({ params: psi70, dp: 64, stage: 3 });
    expect(perGpu).toBe((16 * psi70) / 64);
    expectPrinted(chapter, 'shrink to $16\\Psi / 64$, 17.6 GB per GPU for its 70.55 billion parameters', [16, 64, perGpu / GB, psi70 / 1e9]);
    expect(chapter).not.toContain('a few gigabytes per GPU');
  });
  it("the ZeRO paper's stage-3 example is 1.875e9 bytes: 1.88 GB here, 1.9 GB in its Figure 1", () => {
    const stage3 = zeroMemory({ params: 7.5e9, dp: 64, stage: 3 });
    expect(stage3).toBe(1.875e9);
    expectPrinted(chapter, '$16 \\times 7.5 \\times 10^9 / 64 = 1.875 \\times 10^9$ bytes', [16, 7.5, null, null, 64, stage3 / 1e9, null, null]);
    expectPrinted(chapter, 'rounds it to one decimal, 1.9 GB', [stage3 / GB]);
    expectPrinted(chapter, 'and writes 1.88 GB', [stage3 / GB]);
  });
  it('16Ψ of Llama-3.1-8B is 128.5 GB (10^9 bytes) and 119.66 GiB (2^30 bytes), the same bytes', () => {
    expect(16 * psi).toBe(128_484_179_968);
    expectPrinted(chapter, 'writes the same 128,484,179,968 bytes as 119.66 GiB', [16 * psi, (16 * psi) / 2 ** 30]);
    expectPrinted(chapter, '$16\\Psi = 128.5$ GB', [16, (16 * psi) / GB]);
    const ch2 = fs.readFileSync('content/chapters/02-sft-lora.mdx', 'utf8');
    expect(ch2).toContain('119.66 GiB');
  });
});

describe('chapter 3: weight sync under ZeRO-3 with PEFT (TRL v1.13.0)', () => {
  it('says LoRA gathers every parameter at once and cites the lines', () => {
    expect(chapter).toContain('gathers *all* parameters at once');
    expect(chapter).toContain('`vllm_generation.py:444–469`');
    expect(chapter).not.toMatch(/TRL v1\.13 gathers and sends them one parameter at a time \(one module at a time under FSDP1\), so that no GPU ever holds a second full copy, merges/);
  });
  it('the cited lines are what the chapter says, where the TRL v1.13.0 source is unpacked', () => {
    const file = '/tmp/trl113/src/trl/generation/vllm_generation.py';
    if (!fs.existsSync(file)) return; // the pinned wheel is unpacked only on the machine that checked it
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = (n: number) => lines[n - 1];
    expect(at(444)).toContain('we must gather the full model at once before merging');
    expect(at(447)).toContain('with self._dist.gather_params(list(model.parameters())):');
    expect(at(448)).toContain('model.merge_adapter()');
    expect(at(469)).toContain('model.unmerge_adapter()');
    expect(at(478)).toContain('with self._dist.gather_params([param]):');
    expect(at(385)).toContain('def _iter_fsdp1_params');
    expect(at(397)).toContain('FSDP.summon_full_params(module, recurse=False');
    expect(at(517)).toContain('self.llm.reset_prefix_cache()');
  });
});

describe('chapter 3: link bandwidths and when communication dominates', () => {
  // One-direction rates: the H100 datasheet's NVLink 900 GB/s and PCIe Gen5 128 GB/s count both directions;
  // InfiniBand NDR is 400 Gb/s per direction.
  const nvlink = 900e9 / 2;
  const pcie = 128e9 / 2;
  const ib = 400e9 / 8;
  const ring = ringAllReduceBytes({ workers: 8, bytes: 2 * psi });
  const peak = 1979e12 / 2; // dense bf16: half the datasheet's sparse figure
  const flopsPerSeq = 6 * psi * 4096;
  it('prints the one-direction rates', () => {
    expectPrinted(chapter, '| 900 GB/s, both directions | 450 GB/s |', [900, nvlink / GB]);
    expectPrinted(chapter, '| 128 GB/s, both directions | 64 GB/s |', [128, pcie / GB]);
    expectPrinted(chapter, '| 400 Gb/s | 50 GB/s |', [400, ib / GB]);
  });
  it('times the 8B all-reduce on each link and the computation of one 4096-token sequence', () => {
    expectPrinted(chapter, 'take 62 ms inside one node over NVLink, 0.44 s over PCIe and 0.56 s when the 8 GPUs sit in 8 nodes', [
      (1000 * ring) / nvlink,
      ring / pcie,
      ring / ib,
      8,
      8,
    ]);
    expectPrinted(chapter, '$6 \\times 8.03 \\times 10^9 \\times 4096 = 1.97 \\times 10^{14}$ operations: 0.20 s', [
      6,
      psi / 1e9,
      null,
      null,
      4096,
      flopsPerSeq / 1e14,
      null,
      null,
      flopsPerSeq / peak,
    ]);
    expectPrinted(chapter, 'dense bf16 peak of 989 TFLOP/s (the datasheet\'s 1,979', [null, peak / 1e12, 1979]);
    expectPrinted(chapter, "InfiniBand's 0.56 s is 2.8 times the computation", [ring / ib, ring / ib / (flopsPerSeq / peak)]);
    expect(ring / nvlink).toBeLessThan(flopsPerSeq / peak); // NVLink hides behind the computation
    const tokens = (ring / ib) / ((6 * psi) / peak);
    expect(Math.round(tokens / 500) * 500).toBe(11500);
    // Kaplan et al. §2.1: C ≈ 6N per token with N the non-embedding parameters and the context term
    // 2·n_layer·n_ctx·d_attn (forward) dropped. Leaving out both embedding matrices, then adding back the
    // output layer's product (2Vh forward) and the context term, three times over for forward and backward:
    const vh = llama8.vocab * llama8.hidden;
    const full = 6 * (psi - 2 * vh) + 3 * 2 * vh + 3 * 2 * llama8.layers * 4096 * llama8.hidden;
    expect(Math.abs(full / (6 * psi) - 1)).toBeLessThan(0.01);
    expect(chapter).toContain('comes within a percent of $6\\Psi$ for this model at 4096 tokens');
    // "About": the chapter rounds 11,544 to the nearest 500.
    expect(chapter).toContain('about 11,500 tokens per GPU');
  });
  it("the quiz: a 1B model's ring over 400 Gb/s InfiniBand takes 70 ms; the distractors are the named mistakes", () => {
    const bytes = ringAllReduceBytes({ workers: 8, bytes: 2 * 1e9 });
    expect(bytes).toBe(3.5e9);
    expect((1000 * bytes) / ib).toBeCloseTo(70, 9);
    expect(Math.round((1000 * bytes) / 400e9)).toBe(9); // Gb/s read as GB/s
    expect((1000 * 2e9) / ib).toBeCloseTo(40, 9); // 2Ψ bytes sent once
    expect(chapter).toContain('2 × 7/8 × 2 GB = 3.5 GB per GPU. 400 Gb/s is 50 GB/s, so 3.5 GB take 70 ms.');
  });
});

describe('chapter 3: zero-bubble schedules (Qi et al. §2)', () => {
  it('ZB-H1 cuts the bubble to (p − 1)/(3m) of the ideal time: 11.1% idle for p = 4, m = 8, against 27.3%', () => {
    const p = 4;
    const m = 8;
    const ratio = (p - 1) / (3 * m);
    const idle = ratio / (1 + ratio);
    const oneF1B = pipelineBubble({ stages: p, microbatches: m, schedule: '1f1b' });
    // The 1F1B idle fraction from the simulator's formula, and its ratio form (p − 1)/m three times ZB-H1's.
    expect(oneF1B).toBeCloseTo((p - 1) / (m + p - 1), 12);
    expect((p - 1) / m / ratio).toBeCloseTo(3, 12);
    expectPrinted(chapter, 'for $p = 4$ and $m = 8$ an idle fraction of 11.1% instead of 27.3%', [p, m, 100 * idle, 100 * oneF1B]);
    // Qi et al. Table 2 with T_F = T_B = T_W = 1: bubble (p − 1)(T_F + T_B + T_W) for 1F1B, (p − 1)(T_F + T_B − T_W)
    // for ZB-H1, (p − 1)(T_F + T_B − 2T_W) = 0 for ZB-H2; each micro-batch is 3 units of work per stage.
    const [tf, tb, tw] = [1, 1, 1];
    const work = m * (tf + tb + tw);
    expect(((p - 1) * (tf + tb + tw)) / (work + (p - 1) * (tf + tb + tw))).toBeCloseTo(oneF1B, 12);
    expect(((p - 1) * (tf + tb - tw)) / (work + (p - 1) * (tf + tb - tw))).toBeCloseTo(idle, 12);
    expect((p - 1) * (tf + tb - 2 * tw)).toBe(0);
    expect(chapter).toContain('up to $2p - 1$ micro-batches of activations');
    expect(chapter).toContain('[23, §4]');
  });
});

describe('chapter 3: DualPipe and expert parallelism (DeepSeek-V3 §3.2)', () => {
  it('prints Table 2 of the report and its parallel layout', () => {
    expect(chapter).toContain('$(p/2 - 1)(T_{F\\&B} + T_B - 3T_W)$');
    expect(chapter).toContain('$(p - 1)(T_F + T_B)$ for 1F1B');
    expect(chapter).toContain('twice the parameter memory and $p + 1$ micro-batches of activations instead of $p$');
    expect(chapter).toContain('computation-to-communication ratio was about 1:1');
    expect(chapter).toContain('64-way expert parallelism over 8 nodes, 16-way pipeline parallelism and ZeRO-1 data parallelism');
    expect(chapter).toContain('at most 4 nodes [24, §3.2, §3.2.2]');
    // 64 EP ranks over 8 nodes: the 8 GPUs of a node each.
    expect(64 / 8).toBe(8);
  });
});
