/// <reference lib="webworker" />
/**
 * The policy of chapter 1's MDP stepper: the shipped agent SFT checkpoint, answering "next-token probabilities for
 * this row" off the main thread. tfjs is imported here only, so the chapter loads none of it until the reader
 * presses Step; and tfjs reads its flags from this worker's own URL, so a malformed query in the chapter's URL
 * (`?%ZZ=1`) cannot break it. wasm first: one row of ~30 tokens is a handful of tiny ops, where wasm beats a GPU's
 * per-call overhead and needs no warm-up.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { nextTokenProbs } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { PAD_ID } from '@/lib/tasks/tokenizer';
import { selectBackend, type BackendName } from '@/lib/tf/backend';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { errorMessage } from '@/lib/errors';
import type { FromPolicy, ToPolicy } from './policy-protocol';

declare const self: DedicatedWorkerGlobalScope;

async function load(): Promise<{ model: TinyLM; backend: BackendName }> {
  const { backend } = await selectBackend({ order: ['wasm', 'cpu'] });
  const response = await fetch(`/${CHECKPOINTS.agent_sft}`);
  if (!response.ok) throw new Error(`could not fetch /${CHECKPOINTS.agent_sft} (HTTP ${response.status})`);
  return { model: loadTinyLM(new Uint8Array(await response.arrayBuffer()), { frozen: true }), backend };
}

let ready: ReturnType<typeof load> | null = null;

/** A row the model can read: whole token ids inside its vocabulary, no longer than its context. */
function checkRow(row: unknown, model: TinyLM): number[] {
  const { vocab_size: V, context_length: C } = model.config;
  if (!Array.isArray(row) || row.length === 0 || row.length > C) throw new Error(`a row must hold 1 to ${C} tokens`);
  if (!row.every((t) => Number.isInteger(t) && t >= 0 && t < V)) throw new Error(`token ids must be whole numbers from 0 to ${V - 1}`);
  return row as number[];
}

self.onmessage = async ({ data }: MessageEvent<ToPolicy>) => {
  const id = typeof data?.id === 'number' ? data.id : -1;
  try {
    ready ??= load().catch((e: unknown) => {
      ready = null; // the next Step tries again (a dropped connection, say)
      throw e;
    });
    const { model, backend } = await ready;
    // A copy of exactly V values, so that transferring its buffer moves nothing else.
    const probs = Float32Array.from(await nextTokenProbs(model, [checkRow(data?.row, model)], 1, PAD_ID));
    self.postMessage({ id, probs, backend } satisfies FromPolicy, [probs.buffer]);
  } catch (e) {
    self.postMessage({ id, error: errorMessage(e) } satisfies FromPolicy);
  }
};
