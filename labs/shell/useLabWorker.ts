'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BackendFallback, BackendName } from '@/lib/tf/backend';
import type { LogLine, RunState } from '@/lib/train/run';
import type { FromWorker, ToWorker, TrainerName } from './protocol';

export interface LabWorkerState {
  state: RunState;
  backend: BackendName | null;
  fallbacks: BackendFallback[];
  history: LogLine[];
  /** Samples of the last steps, newest last (for inspectors). */
  samples: { step: number; data: unknown }[];
  error: string | null;
}

const KEEP_SAMPLES = 30;
const initial: LabWorkerState = { state: 'idle', backend: null, fallbacks: [], history: [], samples: [], error: null };

/** One training worker per lab instance; restarting it (e.g. to switch backend) drops the run. */
export function useLabWorker(trainer: TrainerName, checkpointUrl?: string) {
  const worker = useRef<Worker | null>(null);
  const runId = useRef(0);
  const [status, setStatus] = useState<LabWorkerState>(initial);

  const spawn = useCallback(() => {
    worker.current?.terminate();
    const w = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if ('runId' in message && message.runId !== runId.current) return; // from a run that was reset
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
          case 'error':
            return { ...s, state: 'failed', error: message.message };
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
    train(overrides: Record<string, unknown>, backend: BackendName | 'auto') {
      setStatus((s) => ({ ...s, state: 'running', error: null }));
      send({ type: 'train', runId: runId.current, trainer, overrides, backend, checkpointUrl });
    },
    pause: () => send({ type: 'pause' }),
    /** Forget the run; keeps the worker (and its backend) for the next one. */
    reset() {
      runId.current += 1;
      send({ type: 'reset' });
      setStatus((s) => ({ ...initial, backend: s.backend, fallbacks: s.fallbacks }));
    },
    /** A new worker: the backend is chosen again on the next Train. */
    restart() {
      runId.current += 1;
      spawn();
      setStatus(initial);
    },
  };
}
