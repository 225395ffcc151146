/**
 * The sampling call against its bound: generate() for the GRPO lab's batch (64 prompts × 15 completion tokens, EOS
 * never ends a row, so every row runs its 15 tokens) on the lab's SFT checkpoint, with each decoder.
 *
 * The bound is the arithmetic a key/value-cached decoder cannot avoid, at this machine's matmul peak, plus the one
 * read-back it needs: every layer's matmuls at every prompt and completion position, the attention dot products
 * (q·k and the weighted sum of values over positions 0 … t), and the LM head at each sampled position; the peak is
 * tfjs-wasm's (XNNPACK, SIMD, one thread) on a large square matmul, measured here; the read-back is reading the
 * weights back once, as the fused kernel does per call.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { fusedDecodingAvailable } from '@/lib/models/decode-kernel/session';
import { generate, type Decoder } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import type { BackendName } from '@/lib/tf/names';
import { createLabTask } from '@/lib/train/lab-setup';
import { median } from './median';

export const SAMPLING_ROWS = 64;
export const SAMPLING_TOKENS = 15;
const REPEATS = 25;

export interface SamplingBound {
  /** Multiply-adds ×2 a cached decoder must do for the batch. */
  flops: number;
  /** tfjs-wasm matmul peak measured on this machine (GFLOP/s). */
  peakGflops: number;
  /** Reading the weights back once (ms, median). */
  readBackMs: number;
  /** flops at the peak, plus the read-back (ms). */
  boundMs: number;
}

export interface SamplingResult {
  backend: BackendName;
  decoder: Decoder;
  /** Whether 'auto' really ran the fused kernel (false where it stands aside). */
  fused: boolean;
  medianMs: number;
  minMs: number;
  all: number[];
  /** tfjs kernels dispatched per token step (tf.profile of one call; 0 for the fused kernel, which dispatches none). */
  kernelsPerStep: number;
}


/** The arithmetic of cached decoding for these prompts, `tokens` sampled tokens each. */
export function cachedDecodingFlops(model: TinyLM, prompts: number[][], tokens: number): number {
  const { d_model: D, d_ff: F, n_layers: L, vocab_size: V } = model.config;
  const perPosition = 2 * L * (D * 3 * D + D * D + 2 * D * F); // qkv, out, fc1, fc2
  let flops = 0;
  for (const p of prompts) {
    const positions = p.length + tokens - 1; // the last sampled token is never fed back
    flops += positions * perPosition;
    for (let t = 0; t < positions; t++) flops += L * 4 * D * (t + 1); // q·k and Σ p·v over positions 0 … t
    flops += tokens * 2 * D * V; // the head, once per sampled token
  }
  return flops;
}

async function timeIt(run: () => Promise<unknown>, repeats: number): Promise<number[]> {
  await run(); // warm-up: compiles, tiers up, fills the instance pool
  const all: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    await run();
    all.push(performance.now() - t);
  }
  return all;
}

function labBatch(model: TinyLM): { prompts: number[][]; run: (decoder: Decoder) => Promise<unknown> } {
  const task = createLabTask();
  const prompts = task.sample('train', SAMPLING_ROWS, createRng('bench-sampling')).map((p) => task.encodePrompt(p));
  const config = { temperature: 1, max_completion_length: SAMPLING_TOKENS, eos_id: -1, pad_id: task.tokenizer.pad };
  let seed = 0;
  return { prompts, run: (decoder) => generate(model, prompts, config, createRng(seed++), undefined, { decoder }) };
}

function loadSamplingModel(): TinyLM {
  return loadTinyLM(new Uint8Array(fs.readFileSync('public/models/sft.arlw')));
}

/** The bound, measured on the current backend (call it on wasm: the peak is wasm's). */
export async function samplingBound(): Promise<SamplingBound> {
  const model = loadSamplingModel();
  try {
    const n = 512;
    const [a, b] = [tf.randomNormal([n, n]), tf.randomNormal([n, n])];
    const matmul = await timeIt(async () => {
      const c = tf.matMul(a, b);
      await c.data();
      c.dispose();
    }, 10).finally(() => tf.dispose([a, b]));
    const peakGflops = (2 * n ** 3) / (Math.min(...matmul) * 1e6);
    const readBack = await timeIt(async () => {
      const packed = tf.tidy(() => tf.concat([...model.namedWeights().values()].map((v) => tf.reshape(v, [-1]))));
      await packed.data();
      packed.dispose();
    }, REPEATS);
    const flops = cachedDecodingFlops(model, labBatch(model).prompts, SAMPLING_TOKENS);
    const readBackMs = median(readBack);
    return { flops, peakGflops, readBackMs, boundMs: flops / (peakGflops * 1e6) + readBackMs };
  } finally {
    model.dispose();
  }
}

/** generate() for the lab's batch with each decoder, on the current backend. */
export async function benchSampling(backend: BackendName): Promise<SamplingResult[]> {
  const model = loadSamplingModel();
  try {
    const batch = labBatch(model);
    const fused = await fusedDecodingAvailable(model.config);
    const results: SamplingResult[] = [];
    for (const decoder of ['auto', 'tfjs'] as const) {
      const all = await timeIt(() => batch.run(decoder), REPEATS);
      const kernels = (await tf.profile(async () => void (await batch.run(decoder)))).kernels.length;
      results.push({ backend, decoder, fused: decoder === 'auto' && fused, medianMs: median(all), minMs: Math.min(...all), all, kernelsPerStep: kernels / SAMPLING_TOKENS });
    }
    return results;
  } finally {
    model.dispose();
  }
}
