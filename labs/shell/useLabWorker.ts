'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BackendFallback, BackendName } from '@/lib/tf/backend';
import { chooseBackend, parseProbeOptions, PROBE_STORAGE_KEY, type BackendChoice, type BackendTiming } from '@/lib/tf/choice';
import type { FieldValue } from '@/lib/train/config';
import type { InspectOf, TrainerName } from '@/lib/spec/registry';
import type { LogLine, RunState } from '@/lib/train/run';
import type { ActionResult } from '@/lib/train/trainer';
import type { SandboxOutcome } from '@/lib/sandbox/outcome';
import type { Dataset } from '@/lib/tasks/dataset';
import type { FromProbe, FromWorker, Sampler, ToProbe, ToWorker } from './protocol';
import { coalescedRenders } from './coalesced-renders';
import { RunClock } from './progress';
import { keepSample } from './sampleHistory';

/**
 * What a run takes besides settings: the reader's dataset, and their reward function as a sandbox to call (the
 * worker asks the page for each batch; the code never runs in the page or the worker).
 */
export interface LabExtras {
  dataset?: Dataset;
  reward?: { weight: number; call(args: unknown[], timeoutMs: number): Promise<SandboxOutcome> };
}

/** One step's inspector data, as trainer N's inspect() returned it. */
export interface StepSample<N extends TrainerName> {
  step: number;
  data: InspectOf<N>;
}

export interface LabWorkerState<N extends TrainerName> {
  state: RunState;
  backend: BackendName | null;
  fallbacks: BackendFallback[];
  /** How samples are decoded (null: not known yet, or the lab never samples). */
  sampler: Sampler | null;
  history: LogLine[];
  /** Samples of the last steps, newest last (for inspectors). */
  samples: StepSample<N>[];
  /** What the running step is doing, for trainers that say (a self-improvement round's phase); null otherwise. */
  phase: string | null;
  error: string | null;
  /** The last result of each trainer action the reader asked for, by action name. */
  actions: Record<string, ActionResult>;
  /** With 'auto': the lab's step timed on each backend while the run trains, and what was decided. */
  probe: ProbeState | null;
  /** The run moved to another backend (or tried to: error). */
  switched: { backend: BackendName; step: number; reason: string; error?: string } | null;
  /** The run's length (its max_steps: steps, or rounds where a step is a round); null before a run starts. */
  total: number | null;
  /** The run's training time (ms, pauses left out) when each of its steps was logged, for the time-left estimate. */
  stepTimes: number[];
  /** How long the finished run took (ms, pauses left out); null until it is done. */
  elapsedMs: number | null;
  /** Pause was asked for and the running step has not yet reached a point where it can stop. */
  pausing: boolean;
}

export interface ProbeState {
  timings: BackendTiming[];
  /** Null while timing. */
  decision: BackendChoice | null;
}

/** A run's weights (lib/models/weights-file.ts) and the tfjs version that trained them. */
export interface RunWeights {
  bytes: Uint8Array;
  tfjs: string;
}

function initial<N extends TrainerName>(): LabWorkerState<N> {
  return { state: 'idle', backend: null, fallbacks: [], sampler: null, history: [], samples: [], phase: null, error: null, actions: {}, probe: null, switched: null, total: null, stepTimes: [], elapsedMs: null, pausing: false };
}

/** One training worker per lab instance; restarting it (e.g. to switch backend) drops the run. */
export function useLabWorker<N extends TrainerName>(trainer: N) {
  const worker = useRef<Worker | null>(null);
  const runId = useRef(0);
  const [status, setStatusState] = useState<LabWorkerState<N>>(initial);
  // The status as of the last change, read at once (React's copy arrives with the next render): the lab's run state
  // (runMachine.ts) hears each change of the run's state here, with the history and error it ended with.
  const latest = useRef<LabWorkerState<N>>(status);
  const stateListeners = useRef(new Set<(status: LabWorkerState<N>) => void>());
  const [renders] = useState(() => coalescedRenders(setStatusState));
  /** `soon`: a step's log line or samples, rendered with the others of the next quarter second (coalesced-renders.ts). */
  const setStatus = (change: LabWorkerState<N> | ((s: LabWorkerState<N>) => LabWorkerState<N>), soon = false) => {
    const before = latest.current;
    const next = typeof change === 'function' ? change(before) : change;
    latest.current = next;
    if (soon) renders.soon(next);
    else renders.now(next);
    if (next.state !== before.state) stateListeners.current.forEach((listener) => listener(next));
  };
  /** The caller waiting for the run's weights (a submission), answered by the worker's 'weights' or 'error'. */
  const pendingWeights = useRef<{ resolve(w: RunWeights): void; reject(error: Error): void } | null>(null);
  /** The backend the run is on, for the probe's decision. */
  const backendNow = useRef<BackendName | null>(null);
  const runState = useRef<RunState>('idle');
  const probe = useRef<Worker | null>(null);
  /** An 'auto' run's probe, started once its first step is done (so it never delays that step). */
  // The probe a fresh 'auto' run asks for, with the switch margin read from storage once; it starts at the run's first log.
  const probeRequest = useRef<{ request: ToProbe; margin: number } | null>(null);
  /** The current run's reward sandbox, which answers the worker's reward requests. */
  const rewardCall = useRef<LabExtras['reward'] | null>(null);
  const clock = useRef(new RunClock());

  const stopProbe = () => {
    probe.current?.terminate();
    probe.current = null;
    probeRequest.current = null;
  };

  const startProbe = (request: ToProbe, forRun: number, margin: number) => {
    const p = new Worker(new URL('./probe.worker.ts', import.meta.url), { type: 'module' });
    const timings: BackendTiming[] = [];
    setStatus((s) => ({ ...s, probe: { timings: [], decision: null } }));
    p.onmessage = (event: MessageEvent<FromProbe>) => {
      if (forRun !== runId.current) return;
      const message = event.data;
      if (message.type === 'timing') {
        timings.push(message.timing);
        setStatus((s) => ({ ...s, probe: { timings: [...timings], decision: null } }));
        return;
      }
      stopProbe();
      const current = backendNow.current;
      if (current === null) return;
      const ended = runState.current === 'done' || runState.current === 'stopped' || runState.current === 'failed';
      const decision = chooseBackend(current, timings, margin, ended);
      setStatus((s) => ({ ...s, probe: { timings: [...timings], decision } }));
      if (decision.switchTo) worker.current?.postMessage({ type: 'switch', runId: forRun, backend: decision.backend, reason: decision.reason } satisfies ToWorker);
    };
    p.onerror = (event) => {
      stopProbe();
      setStatus((s) => ({ ...s, probe: { timings: [...timings], decision: { backend: backendNow.current ?? 'wasm', switchTo: false, reason: `Kept the backend: the timing worker failed (${event.message || 'unknown error'}).` } } }));
    };
    p.postMessage(request);
    probe.current = p;
  };

  const dropPending = () => {
    pendingWeights.current?.reject(new Error('the run was reset'));
    pendingWeights.current = null;
  };

  const spawn = useCallback(() => {
    worker.current?.terminate();
    stopProbe();
    dropPending();
    const w = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module' });
    // The worker runs `trainer`, so its samples are InspectOf<N>: the protocol's promise, checked by its types.
    w.onmessage = (event: MessageEvent<FromWorker<N>>) => {
      const message = event.data;
      if ('runId' in message && message.runId !== runId.current) return; // from a run that was reset
      const waiting = pendingWeights.current;
      if (waiting && (message.type === 'weights' || (message.type === 'error' && message.request === 'weights'))) {
        pendingWeights.current = null;
        if (message.type === 'weights') waiting.resolve({ bytes: message.bytes, tfjs: message.tfjs });
        else waiting.reject(new Error(message.message));
        return;
      }
      if (message.type === 'weights') return; // nobody is waiting any more
      if (message.type === 'reward-request') {
        const reward = rewardCall.current;
        const answer = reward ? reward.call(message.args, message.timeoutMs) : Promise.resolve<SandboxOutcome>({ ok: false, kind: 'crash', message: 'no reward function is loaded' });
        void answer.then((outcome) => {
          if (message.runId === runId.current) w.postMessage({ type: 'reward-result', id: message.id, outcome } satisfies ToWorker);
        });
        return;
      }
      if (message.type === 'backend' || message.type === 'switched') backendNow.current = message.backend;
      if (message.type === 'state') runState.current = message.state;
      const now = performance.now();
      if (message.type === 'state' && message.state === 'running') clock.current.start(now);
      else if (message.type === 'state') clock.current.halt(now);
      // A log line closes the work before it, even one that ends after a pause was asked for.
      const trainedMs = message.type === 'log' ? clock.current.read(now, true) : clock.current.read(now);
      if (message.type === 'log' && probeRequest.current) {
        const { request, margin } = probeRequest.current;
        probeRequest.current = null;
        startProbe(request, message.runId, margin);
      }
      const soon = message.type === 'log' || message.type === 'samples' || message.type === 'phase';
      setStatus((s) => {
        switch (message.type) {
          case 'backend':
            return { ...s, backend: message.backend, fallbacks: message.fallbacks, sampler: message.sampler };
          case 'switched':
            return { ...s, backend: message.backend, switched: { backend: message.backend, step: message.step, reason: message.reason, error: message.error } };
          case 'log':
            return { ...s, history: [...s.history, message.line], stepTimes: message.line.kind === 'train' ? [...s.stepTimes, trainedMs] : s.stepTimes };
          case 'phase':
            return { ...s, phase: message.phase };
          case 'samples':
            return { ...s, samples: keepSample(s.samples, { step: message.step, data: message.data }) };
          case 'state':
            return { ...s, state: message.state, error: message.error ?? (message.state === 'failed' ? s.error : null), elapsedMs: message.state === 'done' ? trainedMs : null, pausing: message.state === 'running' ? s.pausing : false };
          case 'action':
            return { ...s, actions: { ...s.actions, [message.name]: message.result } };
          case 'error':
            return { ...s, state: s.state === 'running' || s.state === 'idle' ? 'failed' : s.state, error: message.message };
        }
      }, soon);
    };
    w.onerror = (event) => setStatus((s) => ({ ...s, state: 'failed', error: `The training worker crashed: ${event.message || 'unknown error'}` }));
    worker.current = w;
  }, []);

  useEffect(() => {
    spawn();
    return () => {
      worker.current?.terminate();
      stopProbe();
      renders.dispose();
    };
  }, [spawn, renders]);

  const send = (message: ToWorker) => worker.current?.postMessage(message);

  /** Calls `listener` with the status each time the run's state changes; returns the unsubscribe. */
  const onStateChange = useCallback((listener: (status: LabWorkerState<N>) => void) => {
    const listeners = stateListeners.current;
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);

  return {
    status,
    onStateChange,
    /** The status as of the last change (what the next render will show). */
    read: () => latest.current,
    /** Starts a run (or resumes a paused one: `fresh` false), with the reader's dataset and reward function if given. */
    train(overrides: Record<string, FieldValue>, backend: BackendName | 'auto', fresh = true, extras: LabExtras = {}) {
      if (fresh && backend === 'auto') {
        const { software, margin } = parseProbeOptions(readStorage(PROBE_STORAGE_KEY));
        probeRequest.current = { request: { trainer, overrides, software }, margin };
      }
      if (fresh) clock.current = new RunClock();
      clock.current.start(performance.now());
      setStatus((s) => ({ ...s, state: 'running', error: null, pausing: false }));
      if (!fresh) return send({ type: 'train', runId: runId.current, trainer, overrides, backend });
      const total = Number(overrides.max_steps);
      setStatus((s) => ({ ...s, total: Number.isInteger(total) && total > 0 ? total : null, stepTimes: [], elapsedMs: null }));
      rewardCall.current = extras.reward ?? null;
      send({ type: 'train', runId: runId.current, trainer, overrides, backend, extras: { dataset: extras.dataset, reward: extras.reward && { weight: extras.reward.weight } } });
    },
    /** Asks the run to pause; the status says so at once, until the step reaches a point where it can stop. */
    pause: () => {
      setStatus((s) => (s.state === 'running' ? { ...s, pausing: true } : s));
      send({ type: 'pause' });
    },
    /** Asks the trainer to run one of its actions; the result arrives in status.actions[name]. */
    action: (name: string) => send({ type: 'action', runId: runId.current, name }),
    /** The current run's weights as a checkpoint file, read between steps (pause or finish the run first). */
    weights(): Promise<RunWeights> {
      pendingWeights.current?.reject(new Error('asked again'));
      return new Promise((resolve, reject) => {
        pendingWeights.current = { resolve, reject };
        send({ type: 'weights', runId: runId.current });
      });
    },
    /** Forget the run; keeps the worker (and its backend) for the next one. */
    reset() {
      runId.current += 1;
      runState.current = 'idle';
      clock.current = new RunClock();
      stopProbe();
      dropPending();
      send({ type: 'reset' });
      setStatus((s) => ({ ...initial<N>(), backend: s.backend, fallbacks: s.fallbacks, sampler: s.sampler }));
      // The next run picks its backend again ('auto': wasm at once, then the timing) and starts from the checkpoint.
    },
    /** A new worker: the backend is chosen again on the next Train. */
    restart() {
      runId.current += 1;
      runState.current = 'idle';
      clock.current = new RunClock();
      spawn();
      setStatus(initial<N>());
    },
  };
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage blocked (private mode, sandboxed frame)
  }
}
