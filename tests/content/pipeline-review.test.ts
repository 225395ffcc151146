/**
 * Chapter 7 after the second review (issue 39): what the TRL run loads in which precision, the lab's figures as a mean
 * and spread over seeds, the two rewards and the model of the export, TRL's switches for truncation and for the
 * generator mismatch, and the memory the calculator leaves out. Each printed number is recomputed here: the lab's
 * figures by running the lab (seeded, wasm, as scripts/claims runs it), the rest from lib/ and the formulas.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { trlDefaults } from '@/content/trl-defaults';
import { findModel, paramCount } from '@/lib/dist/models';
import { hardwareTable, logitsGB } from '@/lib/export/hardware';
import { REAL_MAX_COMPLETION } from '@/lib/export/mapping';
import { buildProject, exportSettings } from '../unit/export/helpers';
import { modelInitKwargs } from '@/lib/export/python/train';
import { hardwareSteps, PROMPT_BUDGET } from '@/lib/export/readme';
import { MODEL, MODEL_ALTERNATIVE, MODEL_SHAPE } from '@/lib/export/versions';
import { selectBackend } from '@/lib/tf/backend';
import { grpoSchema } from '@/lib/train/grpo-config';
import type { LogLine } from '@/lib/train/run';
import type { Claim, ClaimRun } from '@/lib/claims/types';
import { runClaims } from '../../scripts/claims/run';
import { expectPrinted } from './printed-numbers';

const chapter = fs.readFileSync('content/chapters/07-pipeline.mdx', 'utf8');
const _ = null;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Standard deviation over seeds with the n − 1 denominator, as the sweep table uses. */
const std = (xs: number[]) => Math.sqrt(xs.reduce((a, b) => a + (b - mean(xs)) ** 2, 0) / (xs.length - 1));
const pct = (xs: number[]) => xs.map((x) => 100 * x);

/** A float32 rounded to the nearest bfloat16 (ties to even): the top 16 bits of the float32. */
function bf16(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  const rounded = (u[0] + 0x7fff + ((u[0] >> 16) & 1)) & 0xffff0000;
  return new Float32Array(new Uint32Array([rounded >>> 0]).buffer)[0];
}

describe('chapter 7: the precision the TRL run loads', () => {
  it('says bf16=True is mixed precision and names the dtype the export passes', () => {
    expect(chapter).not.toMatch(/Halve the memory of weights/);
    expect(chapter).toContain('`bf16=True` turns on bf16 *mixed precision*');
    const [full, lora] = [modelInitKwargs(false), modelInitKwargs(true)];
    expect(full.value).toEqual({ dtype: 'float32' });
    expect(lora.value).toEqual({ dtype: 'bfloat16' });
    expect(chapter).toContain(`model_init_kwargs={"dtype": "${(full.value as { dtype: string }).dtype}"},`);
    expect(chapter).toContain(`(\`{"dtype": "${(lora.value as { dtype: string }).dtype}"}\`, 2 bytes a parameter)`);
    // The line of TRL's float32 default, as the export's comment cites it.
    expect(full.comment).toContain('trl/trainer/utils.py:1175');
    expect(chapter).toContain('`trl/trainer/utils.py:1175` at v1.13.0');
  });

  it('shows that a step of 1e-6 rounds away in bf16', () => {
    const w = 0.02;
    const exponent = Math.floor(Math.log2(w));
    const gap = 2 ** (exponent - 7); // bf16 keeps 7 explicit mantissa bits
    expect(bf16(w + gap) - bf16(w)).toBeCloseTo(gap, 12);
    expect(bf16(w + 1e-6)).toBe(bf16(w));
    expect(1e-6 / gap).toBeLessThan(0.01);
    expectPrinted(
      chapter,
      'a weight of $0.02$ lies between $2^{-6}$ and $2^{-5}$, where neighbouring bf16 numbers are $2^{-13} \\approx 1.2 \\times 10^{-4}$ apart, so a step of $10^{-6}$ is under 1% of the gap',
      [w, 2, exponent, 2, exponent + 1, 16, 2, exponent - 7, gap / 1e-4, _, -4, _, -6, _],
    );
  });
});

describe('chapter 7: the model and the rewards of the export', () => {
  it('trains the export’s model, and names the alternative', () => {
    expect(chapter).toContain(`model="${MODEL}",`);
    expect(chapter).toContain(`${MODEL_ALTERNATIVE.split('/')[1]} [4], of the same family and size`);
    expect(chapter).toContain('4. Qwen Team (2024). *Qwen2.5 Technical Report*.');
    expect(chapter).not.toMatch(/Qwen\/Qwen2\.5-0\.5B-Instruct|Qwen2\.5-0\.5B \(/);
  });

  it('names the two reward functions the default export passes', () => {
    const rewards = buildProject('grpo', exportSettings('grpo', 'default'), 'default').plan.rewards;
    expect(rewards).toEqual([
      { fn: 'correctness_reward', weight: 1 },
      { fn: 'format_reward', weight: 0.2 },
    ]);
    expect(grpoSchema.reward_weight_length.default).toBe(0);
    expect(chapter).toContain('The rewards are the two of the TRL run, exact-match correctness on the integer after `####` (weight 1.0) and a format check (weight 0.2)');
    expect(chapter).not.toContain('the same three kinds');
  });
});

describe('chapter 7: TRL’s switches for truncation and the generator mismatch', () => {
  it('cites the lines of the recorded defaults', () => {
    for (const field of ['mask_truncated_completions', 'vllm_importance_sampling_correction', 'vllm_gpu_memory_utilization']) {
      const d = trlDefaults.find((t) => t.config === 'GRPOConfig' && t.field === field)!;
      expect(chapter, field).toContain(`grpo_config.py:${d.line - 1}-${d.line}`);
    }
  });

  it('the quiz: a sequence ratio above the cap is masked', () => {
    const ratio = Math.exp(-41.0 - -42.5);
    const cap = 3.0; // vllm_importance_sampling_clip_max at v1.13.0, with the default mode sequence_mask
    expect(ratio).toBeGreaterThan(cap);
    expectPrinted(chapter, 'is −41.0 under the training model and −42.5 under vLLM', [-41.0, -42.5]);
    expectPrinted(chapter, 'choices={["0, because its ratio of about 4.48 is above the cap of 3", "3, the cap", "About 4.48"', [0, ratio, cap, cap, ratio]);
  });
});

describe('chapter 7: the memory the calculator leaves out', () => {
  const step = hardwareSteps(buildProject('grpo', exportSettings('grpo', 'default'), 'default').plan)[1];
  const model = findModel(MODEL_SHAPE);
  const params = paramCount(model);
  const ddp = hardwareTable(step).cells.find((c) => c.stage === 0 && c.gpus === 1)!.gb;
  const share = trlDefaults.find((t) => t.config === 'GRPOConfig' && t.field === 'vllm_gpu_memory_utilization')!.value as number;

  it('the model states inside the 9.9 GB', () => {
    expectPrinted(chapter, 'Of the 9.9 GB, 9.5 GB are model states, 16 bytes for each of the model\'s 0.596 billion parameters', [ddp, (16 * params) / 1e9, 16, params / 1e9]);
  });

  it('the logits of the 152k vocabulary', () => {
    const kept = REAL_MAX_COMPLETION.grpo + 1; // logits_to_keep + 1 positions
    expect(step.seqLen).toBe(PROMPT_BUDGET + REAL_MAX_COMPLETION.grpo);
    expectPrinted(chapter, 'Qwen3\'s has 151,936. For one micro-batch that is 8 × 768 × 151,936 values, 3.7 GB in fp32, more than a third of the calculator\'s 9.9 GB', [
      3,
      model.vocab,
      step.microBatch,
      step.seqLen,
      model.vocab,
      logitsGB(step),
      32,
      ddp,
    ]);
    expect(logitsGB(step) / ddp).toBeGreaterThan(1 / 3);
    expectPrinted(chapter, 'at most 513 of the 768, which is 2.5 GB in fp32', [kept, step.seqLen, (step.microBatch * kept * model.vocab * 4) / 1e9, 32]);
    expectPrinted(chapter, 'The README budgets the 3.7 GB', [logitsGB(step)]);
  });

  it('colocated vLLM’s share, its weights and the key/value cache', () => {
    const kvPerToken = 2 * model.layers * model.kvHeads * model.headDim * 2;
    const batch = grpoSchema.per_device_train_batch_size.default; // the step's completions
    expect(chapter).toContain('vllm_gpu_memory_utilization=0.3,');
    expectPrinted(chapter, 'On a 24 GB GPU that is 0.3 × 24 = 7.2 GB. Its own copy of the weights, in the model\'s bf16, takes 1.2 GB', [24, share, 24, share * 24, 16, (2 * params) / 1e9]);
    expectPrinted(chapter, '2 × 28 layers × 8 key/value heads × 128 dimensions × 2 bytes = 114,688 bytes a token, so the step\'s 64 completions of 768 tokens need 5.6 GB', [
      2,
      model.layers,
      model.kvHeads,
      model.headDim,
      2,
      kvPerToken,
      batch,
      step.seqLen,
      (batch * step.seqLen * kvPerToken) / 1e9,
    ]);
    const total = ddp + logitsGB(step) + share * 24;
    expectPrinted(chapter, 'Together that is 9.9 + 3.7 + 7.2 = 20.8 GB of a 24 GB GPU, which leaves 3.2 GB', [ddp, logitsGB(step), share * 24, total, 24, 24 - total]);
    expectPrinted(chapter, 'On an 80 GB GPU the same 0.3 reserves 24.0 GB', [80, share, share * 80]);
    expectPrinted(chapter, '0.1 (8.0 GB) would do', [0.1, 0.1 * 80]);
    expectPrinted(chapter, 'takes for its weights, working memory and key/value cache: 0.3 × 80 GB = 24 GB', [share, 80, share * 80]);
    expect(0.1 * 80).toBeGreaterThan((2 * params + batch * step.seqLen * kvPerToken) / 1e9);
    expectPrinted(chapter, 'For a 0.6B model, whose batch needs about 5.6 GB of cache and 1.2 GB of weights', [_, (batch * step.seqLen * kvPerToken) / 1e9, (2 * params) / 1e9]);
  });
});

// ---- the lab's figures, over seeds 0, 1 and 2

const SEEDS = [0, 1, 2];
const run = (overrides: Record<string, unknown>, steps: number, evalEvery: number, preset?: string): ClaimRun => ({ trainer: 'grpo', preset, overrides, steps, evalEvery });
const RUNS: Record<string, ClaimRun> = Object.fromEntries(
  SEEDS.flatMap((seed) => [
    [`default/${seed}`, run({ seed }, 30, 10)],
    [`high/${seed}`, run({ seed }, 30, 10, 'lr_too_high')],
    [`two/${seed}`, run({ seed, num_generations: 2 }, 20, 20)],
  ]),
);

describe('chapter 7: the lab’s figures as a mean and spread over seeds', () => {
  let histories: Record<string, LogLine[]> = {};

  beforeAll(async () => {
    await selectBackend({ requested: 'wasm', order: ['wasm'] });
    const collect: Claim = {
      id: 'pipeline-review-figures',
      text: 'chapter 7’s lab figures over seeds 0, 1 and 2',
      where: 'tests/content/pipeline-review.test.ts',
      runs: RUNS,
      check: (h) => {
        histories = h;
        return { holds: true, figure: '' };
      },
    };
    const [result] = await runClaims([collect]);
    expect(result.figure, 'the runs did not complete').toBe('');
  }, 600_000);

  const accuracy = (name: string, step: number) =>
    SEEDS.map((seed) => histories[`${name}/${seed}`].find((l) => l.kind === 'eval' && l.step === step)!.metrics['eval/accuracy']);
  const trainMean = (name: string, metric: string, firstN?: number) =>
    SEEDS.map((seed) => {
      const values = histories[`${name}/${seed}`].filter((l) => l.kind === 'train').map((l) => l.metrics[metric]);
      return mean(firstN ? values.slice(0, firstN) : values);
    });
  /** "40.8% ± 6.7 (48.5, 36.0, 38.0)" */
  const row = (xs: number[]) => [mean(pct(xs)), std(pct(xs)), ...pct(xs)];

  it('starts every run from the shipped checkpoint’s 27.5%', () => {
    for (const name of ['default', 'high', 'two']) expect(accuracy(name, 0)).toEqual([0.275, 0.275, 0.275]);
  });

  it('prints the GRPO rows of the table', () => {
    expectPrinted(chapter, '| GRPO | `learning_rate` 3e-4, 8 prompts × 8 generations per step, 20 steps | 40.8% ± 6.7 (48.5, 36.0, 38.0) |', [3, -4, 8, 8, 20, ...row(accuracy('default', 20))]);
    expectPrinted(chapter, '| GRPO | the same, 30 steps | 45.2% ± 8.9 (55.0, 43.0, 37.5) |', [30, ...row(accuracy('default', 30))]);
    expectPrinted(chapter, '| GRPO | `learning_rate` 1e-3, 10 steps | 11.3% ± 5.0 (16.5, 6.5, 11.0) |', [1, -3, 10, ...row(accuracy('high', 10))]);
    expectPrinted(chapter, '| GRPO | `learning_rate` 1e-3, 30 steps | 8.5% ± 2.2 (7.0, 7.5, 11.0) |', [1, -3, 30, ...row(accuracy('high', 30))]);
    // The 20-step row is the sweep's 3e-4 row, printed further down.
    expect(chapter).toContain(`| 3e-4 | ${pct(accuracy('default', 20)).map((x) => `${x.toFixed(1)}%`).join(' | ')} | ${mean(pct(accuracy('default', 20))).toFixed(1)}% ± ${std(pct(accuracy('default', 20))).toFixed(1)} |`);
  });

  it('the claims the table’s prose makes hold on every seed', () => {
    const [d30, h10] = [accuracy('default', 30), accuracy('high', 10)];
    expect(Math.min(...accuracy('default', 20), ...d30)).toBeGreaterThan(0.275);
    expect(Math.max(...h10)).toBeLessThan(0.275);
    expectPrinted(chapter, 'Seed 0 alone would report 55.0% after 30 steps and seed 2 alone 37.5%', [0, 100 * d30[0], 30, 2, 100 * d30[2]]);
    expectPrinted(chapter, 'accuracy falls from 27.5% to 11.3% ± 5.0 within 10 steps (mean and standard deviation over seeds 0, 1 and 2)', [27.5, mean(pct(h10)), std(pct(h10)), 10, 0, 1, 2]);
  });

  it('the lab section and the takeaways', () => {
    const d30 = accuracy('default', 30);
    expectPrinted(chapter, 'With the default seed, 0, accuracy climbs from 27.5% to 55.0% in 30 steps, while seeds 1 and 2 reach 43.0% and 37.5% (45.2% ± 8.9 over the three)', [
      0,
      27.5,
      100 * d30[0],
      30,
      1,
      2,
      100 * d30[1],
      100 * d30[2],
      mean(pct(d30)),
      std(pct(d30)),
    ]);
    const [d20, h30] = [accuracy('default', 20), accuracy('high', 30)];
    expectPrinted(chapter, 'GRPO at `learning_rate` 3e-4 lifts that to 40.8% ± 6.7 in 20 steps and 45.2% ± 8.9 in 30, and 1e-3 drops it to 8.5% ± 2.2 in 30', [
      3,
      -4,
      mean(pct(d20)),
      std(pct(d20)),
      20,
      mean(pct(d30)),
      std(pct(d30)),
      30,
      1,
      -3,
      mean(pct(h30)),
      std(pct(h30)),
      30,
    ]);
    expect(chapter).not.toMatch(/50–55%|16–20%|about 55% in 30 steps/);
  });

  it('temperature-1 samples against greedy accuracy', () => {
    const correct = trainMean('default', 'rewards/correctness/mean', 5);
    expectPrinted(chapter, 'only 13.1% ± 1.9 of its temperature-1 samples in the first five training batches are correct', [mean(pct(correct)), std(pct(correct)), _]);
  });

  it('two generations per prompt', () => {
    const zero = trainMean('two', 'frac_reward_zero_std');
    const [two, eight] = [accuracy('two', 20), accuracy('default', 20)];
    const gaps = eight.map((e, i) => 100 * (e - two[i]));
    expect(gaps.every((g) => g >= 0)).toBe(true);
    expectPrinted(chapter, '`frac_reward_zero_std` averages 0.67 over the run (seeds 0, 1 and 2), and held-out accuracy after 20 steps is 33.5% ± 2.0 against 40.8% ± 6.7 with eight generations', [
      mean(zero),
      0,
      1,
      2,
      20,
      mean(pct(two)),
      std(pct(two)),
      mean(pct(eight)),
      std(pct(eight)),
    ]);
    expectPrinted(chapter, 'It is lower on every seed, but by 15.0, 0.5 and 6.5 points: seed 1 alone', [...gaps, 1]);
    expect(Math.min(...gaps)).toBe(gaps[1]);
  });
});
