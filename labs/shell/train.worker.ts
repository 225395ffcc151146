/// <reference lib="webworker" />
/**
 * Trains a lab's model off the main thread, so the page never freezes. tfjs is imported here only (through
 * lib/spec/start.ts): the page that starts this worker loads none of it.
 */
import { getBackend, setBackend, version } from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { AUTO_START_ORDER, type BackendName } from '@/lib/tf/names';
import { startTrainer, type StartedTrainer } from '@/lib/spec/start';
import type { TrainerName } from '@/lib/spec/registry';
import { TrainingRun } from '@/lib/train/run';
import { errorMessage } from '@/lib/errors';
import { readCheckpoint } from './checkpoints';
import { fusedDecodingAvailable, type KernelShape } from '@/lib/models/decode-kernel/session';
import { sandboxedReward } from '@/lib/tasks/custom-reward';
import type { SandboxOutcome } from '@/lib/sandbox/outcome';
import type { TrainerExtras } from '@/lib/train/trainer';
import type { FromWorker, RunExtras, Sampler, ToWorker } from './protocol';
import { throttledSamples } from './throttled-samples';

declare const self: DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => self.postMessage(message);

interface Session {
  runId: number;
  run: TrainingRun;
  started: StartedTrainer<TrainerName>;
  finished: Promise<unknown>;
  /** A backend to move to before the next step. */
  pendingSwitch: Extract<ToWorker, { type: 'switch' }> | null;
}
let session: Session | null = null;

/** How this lab's samples are decoded: language models through the fused kernel where it runs; PPO's MLP never decodes. */
async function samplerOf(model: StartedTrainer<TrainerName>['trainer']['model']): Promise<Sampler | null> {
  if (model.kind !== 'tiny-lm') return null;
  return (await fusedDecodingAvailable(model.config as KernelShape)) ? 'fused' : 'tfjs';
}

/** Reward requests waiting for the page's answer, by id. */
const rewardReplies = new Map<number, (outcome: SandboxOutcome) => void>();
let nextRewardId = 1;

/** The reader's reward function, as the trainer calls it: each batch goes to the page's sandbox and back. */
function trainerExtras(runId: number, extras: RunExtras | undefined): TrainerExtras {
  const reward = extras?.reward;
  return {
    dataset: extras?.dataset,
    reward: reward && {
      weight: reward.weight,
      fn: sandboxedReward(
        (args, timeoutMs) =>
          new Promise((resolve) => {
            const id = nextRewardId++;
            rewardReplies.set(id, resolve);
            post({ type: 'reward-request', runId, id, args, timeoutMs });
          }),
      ),
    },
  };
}

async function start(message: Extract<ToWorker, { type: 'train' }>) {
  if (session) {
    session.run.resume();
    return;
  }
  const { runId } = message;
  // A failure here (no backend, no checkpoint, a config the trainer refuses) has freed everything already, so the
  // reader can change a setting and press Train again.
  // 'auto' starts at once on wasm; the page times the GPU backends meanwhile and may move the run (switch, below).
  const backend = message.backend === 'auto' ? { requested: 'auto' as const, order: AUTO_START_ORDER } : { requested: message.backend };
  const started = await startTrainer(message.trainer, { overrides: message.overrides, backend, readCheckpoint, extras: trainerExtras(runId, message.extras) });
  const { trainer } = started;
  trainer.onPhase?.((phase) => post({ type: 'phase', runId, phase }));
  if (started.backend) post({ type: 'backend', backend: started.backend.backend, fallbacks: started.backend.fallbacks, sampler: await samplerOf(trainer.model) });
  const samples = throttledSamples(
    () => trainer.inspect(),
    (step, data) => post({ type: 'samples', runId, step, data } as FromWorker),
    trainer.config.max_steps,
  );
  const run: TrainingRun = new TrainingRun(trainer, {
    maxSteps: trainer.config.max_steps,
    evalEvery: trainer.config.eval_steps,
    onLog: (line) => post({ type: 'log', runId, line }),
    afterStep: async (step) => {
      await samples.offer(step);
      // A step that ends after a pause was asked for is the one the paused run shows. A step with pause points (a
      // self-improvement round) is read at once: the next one may park mid-way, and a held step read then would show
      // the next step's state (its rounds are long, so reading each costs little).
      if (run.state !== 'running' || run.stepTookPausePoints) await samples.flush();
      if (session?.pendingSwitch) await moveTo(session, session.pendingSwitch);
    },
    onState: (state, error) => {
      post({ type: 'state', runId, state, error });
      // A paused or finished run shows its last step. The held step is read now (throttledSamples), so in the queue,
      // where no resume or reset runs meanwhile, and once no step is in flight: the model is as that step left it. (A
      // trainer that parks mid-step at a pause point has every step read in afterStep: none is held.)
      // Not after a failure or a reset: the model then holds a diverged or dropped step.
      if (state === 'paused' || state === 'done') queue = queue.then(() => run.whenIdle()).then(() => (session?.run === run ? samples.flush() : undefined)).catch(() => undefined);
    },
  });
  session = { runId, run, started, finished: Promise.resolve(), pendingSwitch: null };
  session.finished = run.run();
}

/**
 * Moves the run to another backend between two steps. tfjs keeps every tensor where it was made and moves it on
 * first use by the new backend, so weights, optimizer moments and buffers follow lazily; nothing is re-created.
 */
async function moveTo(current: Session, request: Extract<ToWorker, { type: 'switch' }>) {
  current.pendingSwitch = null;
  const from = getBackend() as BackendName;
  try {
    await selectBackend({ requested: request.backend, order: [request.backend], allowSoftware: true });
    post({ type: 'switched', runId: current.runId, backend: request.backend, step: current.run.stepsDone, reason: request.reason });
  } catch (error) {
    await setBackend(from);
    post({ type: 'switched', runId: current.runId, backend: from, step: current.run.stepsDone, reason: request.reason, error: errorMessage(error) });
  }
}

/** A switch waits for the end of the running step; a run that is not running moves at once. */
async function switchBackend(message: Extract<ToWorker, { type: 'switch' }>) {
  const current = session;
  if (!current || current.runId !== message.runId) return; // the run it was measured for is gone
  if (['done', 'stopped', 'failed'].includes(current.run.state)) return; // nothing left to speed up
  if (current.run.state === 'running') {
    current.pendingSwitch = message;
    return;
  }
  await current.run.whenIdle();
  await moveTo(current, message);
}

/**
 * Runs a trainer action on a run that is not training (paused, finished, stopped), once its last step has ended. The
 * run cannot resume meanwhile: 'train' messages wait in the queue behind this one.
 */
async function action(message: Extract<ToWorker, { type: 'action' }>) {
  const current = session;
  if (!current || current.runId !== message.runId) throw new Error('there is no run to act on: train first');
  const act = current.started.trainer.actions?.[message.name];
  if (!act) throw new Error(`this trainer has no action "${message.name}"`);
  if (current.run.state === 'running') throw new Error('pause the run first: an action runs between steps');
  await current.run.whenIdle(); // a paused run may still be finishing its last step
  const result = await act();
  post({ type: 'action', runId: message.runId, name: message.name, result });
}

/** The run's weights, once its last step has ended (as an action, it waits for a paused run's step to finish). */
async function weights(message: Extract<ToWorker, { type: 'weights' }>) {
  const current = session;
  if (!current || current.runId !== message.runId) throw new Error('there is no run to submit: train first');
  if (current.run.state === 'running') throw new Error('pause the run first: weights are read between steps');
  await current.run.whenIdle();
  post({ type: 'weights', runId: message.runId, bytes: await current.started.trainer.save(), tfjs: version.tfjs });
}

async function reset() {
  // A reward request of the dropped run will never be answered by the page: end it as a failure.
  for (const settle of rewardReplies.values()) settle({ ok: false, kind: 'crash', message: 'the run was reset' });
  rewardReplies.clear();
  if (!session) return;
  const { run, started, finished } = session;
  session = null;
  run.stop();
  await finished; // run() never rejects
  started.trainer.dispose();
}

// Messages are handled one at a time, in order, so a reset never races a start.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  // A reward result answers a step in flight: it cannot wait in the queue (a pause or an action there waits for that step).
  if (message.type === 'reward-result') {
    const settle = rewardReplies.get(message.id);
    rewardReplies.delete(message.id);
    settle?.(message.outcome);
    return;
  }
  queue = queue.then(async () => {
    try {
      if (message.type === 'train') await start(message);
      else if (message.type === 'pause') session?.run.pause();
      else if (message.type === 'action') await action(message);
      else if (message.type === 'weights') await weights(message);
      else if (message.type === 'switch') await switchBackend(message);
      else if (message.type === 'reset') await reset();
    } catch (error) {
      const runId = 'runId' in message ? message.runId : (session?.runId ?? -1);
      post({ type: 'error', runId, message: errorMessage(error), request: message.type });
    }
  });
};
