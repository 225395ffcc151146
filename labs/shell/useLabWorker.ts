'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BackendFallback, BackendName } from '@/lib/tf/backend';
import type { FieldValue } from '@/lib/train/config';
import type { InspectOf, TrainerName } from '@/lib/train/registry';
import type { LogLine, RunState } from '@/lib/train/run';
import type { ActionResult } from '@/lib/train/trainer';
import type { FromWorker, ToWorker } from './protocol';

/** One step's inspector data, as trainer N's inspect() returned it. */
export interface StepSample<N extends TrainerName> {
  step: number;
  data: InspectOf<N>;
}

export interface LabWorkerState<N extends TrainerName> {
  state: RunState;
  backend: BackendName | null;
  fallbacks: BackendFallback[];
  history: LogLine[];
  /** Samples of the last steps, newest last (for inspectors). */
  samples: StepSample<N>[];
  error: string | null;
  /** The last result of each trainer action the reader asked for, by action name. */
  actions: Record<string, ActionResult>;
}

/** A run's weights (lib/models/weights-file.ts) and the tfjs version that trained them. */
export interface RunWeights {
  bytes: Uint8Array;
  tfjs: string;
}

const KEEP_SAMPLES = 30;
function initial<N extends TrainerName>(): LabWorkerState<N> {
  return { state: 'idle', backend: null, fallbacks: [], history: [], samples: [], error: null, actions: {} };
}

/** One training worker per lab instance; restarting it (e.g. to switch backend) drops the run. */
export function useLabWorker<N extends TrainerName>(trainer: N) {
  const worker = useRef<Worker | null>(null);
  const runId = useRef(0);
  const [status, setStatus] = useState<LabWorkerState<N>>(initial);
  /** The caller waiting for the run's weights (a submission), answered by the worker's 'weights' or 'error'. */
  const pendingWeights = useRef<{ resolve(w: RunWeights): void; reject(error: Error): void } | null>(null);

  const dropPending = () => {
    pendingWeights.current?.reject(new Error('the run was reset'));
    pendingWeights.current = null;
  };

  const spawn = useCallback(() => {
    worker.current?.terminate();
    dropPending();
    const w = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module' });
    // The worker runs `trainer`, so its samples are InspectOf<N>: the protocol's promise, checked by its types.
    w.onmessage = (event: MessageEvent<FromWorker<N>>) => {
      const message = event.data;
      if ('runId' in message && message.runId !== runId.current) return; // from a run that was reset
      const waiting = pendingWeights.current;
      if (waiting && (message.type === 'weights' || message.type === 'error')) {
        pendingWeights.current = null;
        if (message.type === 'weights') waiting.resolve({ bytes: message.bytes, tfjs: message.tfjs });
        else waiting.reject(new Error(message.message));
        return;
      }
      if (message.type === 'weights') return; // nobody is waiting any more
      setStatus((s) => {
        switch (message.type) {
          case 'backend':
            return { ...s, backend: message.backend, fallbacks: message.fallbacks };
          case 'log':
            return { ...s, history: [...s.history, message.line] };
          case 'samples':
            return { ...s, samples: [...s.samples, { step: message.step, data: message.data }].slice(-KEEP_SAMPLES) };
          case 'state':
            return { ...s, state: message.state, error: message.error ?? (message.state === 'failed' ? s.error : null) };
          case 'action':
            return { ...s, actions: { ...s.actions, [message.name]: message.result } };
          case 'error':
            return { ...s, state: s.state === 'running' || s.state === 'idle' ? 'failed' : s.state, error: message.message };
        }
      });
    };
    w.onerror = (event) => setStatus((s) => ({ ...s, state: 'failed', error: `The training worker crashed: ${event.message || 'unknown error'}` }));
    worker.current = w;
  }, []);

  useEffect(() => {
    spawn();
    return () => worker.current?.terminate();
  }, [spawn]);

  const send = (message: ToWorker) => worker.current?.postMessage(message);

  return {
    status,
    train(overrides: Record<string, FieldValue>, backend: BackendName | 'auto') {
      setStatus((s) => ({ ...s, state: 'running', error: null }));
      send({ type: 'train', runId: runId.current, trainer, overrides, backend });
    },
    pause: () => send({ type: 'pause' }),
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
      dropPending();
      send({ type: 'reset' });
      setStatus((s) => ({ ...initial<N>(), backend: s.backend, fallbacks: s.fallbacks }));
    },
    /** A new worker: the backend is chosen again on the next Train. */
    restart() {
      runId.current += 1;
      spawn();
      setStatus(initial<N>());
    },
  };
}
