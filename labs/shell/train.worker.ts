/// <reference lib="webworker" />
/**
 * Trains an LM lab's model off the main thread, so the page never freezes. tfjs is imported here only:
 * the page that starts this worker loads none of it.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';
import { createLabTask } from '@/lib/train/lab-setup';
import { TRAINERS } from '@/lib/train/registry';
import { TrainingRun } from '@/lib/train/run';
import type { FromWorker, ToWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);

let backendReady: Promise<unknown> | null = null;
const checkpoints = new Map<string, Uint8Array>();
let session: { runId: number; run: TrainingRun; model: TinyLM; trainer: { dispose(): void; lastSamples?: unknown; lastBatch?: unknown }; finished: Promise<unknown> } | null = null;

async function checkpoint(url: string): Promise<Uint8Array> {
  const cached = checkpoints.get(url);
  if (cached) return cached;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the model checkpoint ${url} (HTTP ${response.status})`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  checkpoints.set(url, bytes);
  return bytes;
}

async function start(message: Extract<ToWorker, { type: 'train' }>) {
  if (session) {
    session.run.resume();
    return;
  }
  backendReady ??= selectBackend({ requested: message.backend }).then((selection) => {
    post({ type: 'backend', backend: selection.backend, fallbacks: selection.fallbacks });
  });
  await backendReady;
  const model = loadTinyLM(await checkpoint(message.checkpointUrl));
  const entry = TRAINERS[message.trainer];
  const trainer = await entry.create(model, createLabTask(), message.overrides);
  const extras = trainer as unknown as { lastSamples?: unknown; lastBatch?: unknown };
  const run = new TrainingRun(trainer, {
    maxSteps: trainer.config.max_steps,
    evalEvery: trainer.config.eval_steps,
    onLog: (line) => post({ type: 'log', runId: message.runId, line, samples: line.kind === 'train' ? (extras.lastSamples ?? extras.lastBatch) : undefined }),
    onState: (state, error) => post({ type: 'state', runId: message.runId, state, error }),
  });
  session = { runId: message.runId, run, model, trainer, finished: run.run() };
}

async function reset() {
  if (!session) return;
  const { run, model, trainer, finished } = session;
  session = null;
  run.stop();
  await finished;
  trainer.dispose();
  model.dispose();
}

// Messages are handled one at a time, in order, so a reset never races a start.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  queue = queue.then(async () => {
    try {
      if (message.type === 'train') await start(message);
      else if (message.type === 'pause') session?.run.pause();
      else if (message.type === 'reset') await reset();
    } catch (error) {
      const runId = message.type === 'train' ? message.runId : (session?.runId ?? -1);
      post({ type: 'error', runId, message: error instanceof Error ? error.message : String(error) });
    }
  });
};
