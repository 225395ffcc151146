/// <reference lib="webworker" />
/**
 * Trains a lab's model off the main thread, so the page never freezes. tfjs is imported here only:
 * the page that starts this worker loads none of it.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { createLabTask } from '@/lib/train/lab-setup';
import { TRAINERS } from '@/lib/train/registry';
import { TrainingRun } from '@/lib/train/run';
import type { FromWorker, ToWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);

let backendReady: Promise<unknown> | null = null;
const checkpoints = new Map<string, Uint8Array>();
let session: { runId: number; run: TrainingRun; dispose(): void; finished: Promise<unknown> } | null = null;

/** What each trainer shows in its lab's inspector after a step. */
async function samplesOf(trainer: object): Promise<unknown> {
  const t = trainer as { lastSamples?: unknown; lastBatch?: unknown; policyMap?: () => Promise<unknown> };
  if (t.policyMap) return t.policyMap();
  return t.lastSamples ?? t.lastBatch;
}

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
  const entry = TRAINERS[message.trainer];
  let model: { dispose(): void } | null = null;
  let trainer;
  if (entry.kind === 'lm') {
    if (!message.checkpointUrl) throw new Error(`the ${message.trainer} lab needs a checkpoint to start from`);
    const lm = loadTinyLM(await checkpoint(message.checkpointUrl));
    model = lm;
    trainer = await entry.create(lm, createLabTask(), message.overrides);
  } else {
    trainer = await entry.create(message.overrides);
  }
  const { runId } = message;
  const run = new TrainingRun(trainer, {
    maxSteps: trainer.config.max_steps,
    evalEvery: trainer.config.eval_steps,
    onLog: (line) => {
      post({ type: 'log', runId, line });
      if (line.kind === 'train') void samplesOf(trainer).then((data) => data !== undefined && post({ type: 'samples', runId, step: line.step, data }));
    },
    onState: (state, error) => post({ type: 'state', runId, state, error }),
  });
  const owned = trainer;
  session = {
    runId,
    run,
    dispose: () => {
      owned.dispose();
      model?.dispose();
    },
    finished: run.run(),
  };
}

async function reset() {
  if (!session) return;
  const { run, dispose, finished } = session;
  session = null;
  run.stop();
  await finished;
  dispose();
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
