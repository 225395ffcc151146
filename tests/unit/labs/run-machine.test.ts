/**
 * The lab's run state (labs/shell/runMachine.ts) as a table of transitions: from a state, with what the worker and the
 * form say, an event gives the next state and the effects to perform. The illegal rows change nothing and do nothing.
 */
import { describe, expect, it } from 'vitest';
import type { RunState } from '@/lib/train/run';
import type { PlannedRun } from '@/lib/train/sweep';
import { createLabRunsStore, initialLabRuns, transition, type LabContext, type LabEffect, type LabEvent, type LabRunsState, type RunForm } from '@/labs/shell/runMachine';

const started: RunForm = { preset: 'default', settings: { learning_rate: 0.01, seed: 0, max_steps: 20 } };
const edited: RunForm = { preset: 'default', settings: { learning_rate: 0.02, seed: 0, max_steps: 20 } };
const other: RunForm = { preset: 'lr_too_high', settings: { learning_rate: 0.5, seed: 0, max_steps: 20 } };

const ctx = (worker: RunState, form: RunForm = started, hasRun = worker !== 'idle'): LabContext => ({ worker, hasRun, form, backend: 'wasm' });
const base = initialLabRuns(started);
const planned = (lr: number): PlannedRun => ({ values: [lr], seed: 0, overrides: { ...started.settings, learning_rate: lr } });
const sweeping: LabRunsState = { ...base, sweep: { axes: [], runs: [planned(0.1), planned(0.2)], results: [], running: true } };
const comparing: LabRunsState = { ...base, run: started, queue: [started, other], compared: 0 };
const metrics = { reward: 0.5 };

const archive = (run: RunForm): LabEffect => ({ type: 'archive', run });
const reset: LabEffect = { type: 'reset-worker' };
const start = (form: RunForm, purpose: 'run' | 'sweep' | 'comparison' = 'run'): LabEffect => ({ type: 'start', settings: form.settings, backend: 'wasm', purpose });

type Row = [label: string, from: LabRunsState, context: LabContext, event: LabEvent, to: Partial<LabRunsState> | 'unchanged', effects: LabEffect[]];

const rows: Row[] = [
  // Train
  ['idle: train starts a run with the form', base, ctx('idle', edited), { type: 'train' }, { run: edited, starting: true }, [start(edited)]],
  ['running: train does nothing', base, ctx('running'), { type: 'train' }, 'unchanged', []],
  ['running with a changed form: train still does nothing', base, ctx('running', edited), { type: 'train' }, 'unchanged', []],
  ['paused, unchanged: train resumes', base, ctx('paused'), { type: 'train' }, 'unchanged', [{ type: 'resume', settings: started.settings, backend: 'wasm' }]],
  ['stopped, unchanged: train resumes', base, ctx('stopped'), { type: 'train' }, 'unchanged', [{ type: 'resume', settings: started.settings, backend: 'wasm' }]],
  ['paused, a setting changed: a fresh run, the old one archived', base, ctx('paused', edited), { type: 'train' }, { run: edited, starting: true }, [archive(started), reset, start(edited)]],
  ['paused, the preset changed: a fresh run', base, ctx('paused', other), { type: 'train' }, { run: other, starting: true }, [archive(started), reset, start(other)]],
  ['paused, the reader\'s data changed: a fresh run', { ...base, extrasChanged: true }, ctx('paused'), { type: 'train' }, { run: started, starting: true }, [archive(started), reset, start(started)]],
  ['done: train starts another run, the finished one archived', base, ctx('done'), { type: 'train' }, { run: started, starting: true }, [archive(started), reset, start(started)]],
  ['failed: train starts a fresh run', base, ctx('failed', edited), { type: 'train' }, { run: edited, starting: true }, [archive(started), reset, start(edited)]],
  ['starting: train does nothing (its button is held)', { ...base, starting: true }, ctx('idle'), { type: 'train' }, 'unchanged', []],
  ['paused during a comparison, form changed: the reader\'s run replaces the comparison', comparing, ctx('paused', edited), { type: 'train' }, { run: edited, starting: true, queue: [] }, [archive(started), reset, start(edited)]],
  // Pause
  ['idle: pause does nothing', base, ctx('idle'), { type: 'pause' }, 'unchanged', []],
  ['running: pause asks the worker', base, ctx('running'), { type: 'pause' }, 'unchanged', [{ type: 'pause' }]],
  ['paused: pause does nothing', base, ctx('paused'), { type: 'pause' }, 'unchanged', []],
  ['done: pause does nothing', base, ctx('done'), { type: 'pause' }, 'unchanged', []],
  // Reset
  ['idle with no run: reset does nothing', base, ctx('idle'), { type: 'reset' }, 'unchanged', []],
  ['done: reset archives the run and readies the lab', base, ctx('done', edited), { type: 'reset' }, {}, [archive(started), reset]],
  ['running a comparison: reset archives the run and ends the comparison', comparing, ctx('running'), { type: 'reset' }, { queue: [] }, [archive(started), reset]],
  // Backend
  ['no run: a backend change only restarts the worker', base, ctx('idle'), { type: 'change-backend' }, {}, [{ type: 'apply-backend' }]],
  ['paused: a backend change archives the run first', base, ctx('paused'), { type: 'change-backend' }, {}, [archive(started), reset, { type: 'apply-backend' }]],
  // The reader's data
  ['no run: a data change is nothing to note', base, ctx('idle'), { type: 'extras-changed' }, 'unchanged', []],
  ['running: a data change applies from the next fresh run', base, ctx('running'), { type: 'extras-changed' }, { extrasChanged: true }, []],
  // Sweep
  ['done: a sweep clears the charts and starts its first run', base, ctx('done', edited), { type: 'start-sweep', axes: [], runs: [planned(0.1), planned(0.2)] }, { starting: true, run: { preset: 'default', settings: planned(0.1).overrides }, sweep: { axes: [], runs: [planned(0.1), planned(0.2)], results: [], running: true } }, [reset, { type: 'clear-charts' }, start({ preset: 'default', settings: planned(0.1).overrides }, 'sweep')]],
  ['a sweep of no runs does nothing', base, ctx('idle'), { type: 'start-sweep', axes: [], runs: [] }, 'unchanged', []],
  ['a sweep run ends: its result is kept and the next starts', sweeping, ctx('done'), { type: 'run-ended', state: 'done', metrics }, { starting: true, run: { preset: 'default', settings: planned(0.2).overrides }, sweep: { ...sweeping.sweep!, results: [{ run: planned(0.1), state: 'done', error: undefined, metrics }] } }, [reset, start({ preset: 'default', settings: planned(0.2).overrides }, 'sweep')]],
  ['the last sweep run fails: the sweep ends with it on the charts', { ...sweeping, sweep: { ...sweeping.sweep!, results: [{ run: planned(0.1), state: 'done', metrics }] } }, ctx('failed'), { type: 'run-ended', state: 'failed', error: 'NaN loss', metrics }, { sweep: { ...sweeping.sweep!, running: false, results: [{ run: planned(0.1), state: 'done', metrics }, { run: planned(0.2), state: 'failed', error: 'NaN loss', metrics }] } }, []],
  ['stop-sweep while it runs: the sweep stops and the worker forgets its run', sweeping, ctx('running'), { type: 'stop-sweep' }, { sweep: { ...sweeping.sweep!, running: false } }, [reset]],
  ['stop-sweep with no sweep running does nothing', base, ctx('running'), { type: 'stop-sweep' }, 'unchanged', []],
  // Comparison
  ['no run: a comparison fills the form with its first preset and starts it', base, ctx('idle', edited), { type: 'start-comparison', index: 1, runs: [started, other] }, { run: started, starting: true, queue: [started, other], compared: 1 }, [{ type: 'clear-charts' }, { type: 'fill-form', form: started }, start(started, 'comparison')]],
  ['paused: a comparison clears the run rather than archiving it', base, ctx('paused'), { type: 'start-comparison', index: 0, runs: [other, started] }, { run: other, starting: true, queue: [other, started], compared: 0 }, [reset, { type: 'clear-charts' }, { type: 'fill-form', form: other }, start(other, 'comparison')]],
  ['a comparison run finishes: archived, and the next preset starts', comparing, ctx('done'), { type: 'run-ended', state: 'done', metrics }, { run: other, starting: true, queue: [other] }, [archive(started), reset, { type: 'fill-form', form: other }, start(other, 'comparison')]],
  ['the last comparison run finishes: the comparison ends, the run stays on the charts', { ...comparing, run: other, queue: [other] }, ctx('done'), { type: 'run-ended', state: 'done', metrics }, { queue: [] }, []],
  ['a comparison run fails: the comparison ends there', comparing, ctx('failed'), { type: 'run-ended', state: 'failed', metrics }, { queue: [] }, []],
  ['a comparison run is stopped: the comparison ends there', comparing, ctx('stopped'), { type: 'run-ended', state: 'stopped', metrics }, { queue: [] }, []],
  // A run ending on its own, and a start that could not happen
  ['a plain run finishes: nothing follows', base, ctx('done'), { type: 'run-ended', state: 'done', metrics }, 'unchanged', []],
  ['a start went through: no longer starting, the data change consumed', { ...base, starting: true, extrasChanged: true }, ctx('running'), { type: 'start-ended', purpose: 'run', ok: true }, { starting: false, extrasChanged: false }, []],
  ['a sweep run could not start: the sweep stops', { ...sweeping, starting: true }, ctx('idle'), { type: 'start-ended', purpose: 'sweep', ok: false }, { starting: false, sweep: { ...sweeping.sweep!, running: false } }, []],
  ['a comparison run could not start: the comparison ends', { ...comparing, starting: true }, ctx('idle'), { type: 'start-ended', purpose: 'comparison', ok: false }, { starting: false, queue: [] }, []],
  ['a plain run could not start: a comparison under way is left alone', { ...comparing, starting: true }, ctx('paused'), { type: 'start-ended', purpose: 'run', ok: false }, { starting: false }, []],
];

describe('the lab run state machine', () => {
  it.each(rows)('%s', (_label, from, context, event, to, effects) => {
    const next = transition(from, event, context);
    if (to === 'unchanged') expect(next.state).toBe(from);
    else expect(next.state).toEqual({ ...from, ...to });
    expect(next.effects).toEqual(effects);
  });

  it('changes the state before it performs the effects, so an effect that dispatches again sees the new state', () => {
    const store = createLabRunsStore(started);
    const performed: string[] = [];
    store.dispatch({ type: 'start-comparison', index: 0, runs: [started, other] }, ctx('idle'), (effect) => {
      performed.push(effect.type);
      // The worker answers at once that it cannot start: the comparison it belongs to must already be stored.
      if (effect.type === 'start') store.dispatch({ type: 'start-ended', purpose: effect.purpose, ok: false }, ctx('idle'), () => performed.push('never'));
    });
    expect(performed).toEqual(['clear-charts', 'fill-form', 'start']);
    expect(store.getState()).toMatchObject({ starting: false, queue: [], compared: 0 });
  });

  it('keeps each lab instance\'s runs apart (two labs on one chapter page)', () => {
    const first = createLabRunsStore(started);
    const second = createLabRunsStore(started);
    first.dispatch({ type: 'train' }, ctx('idle', other), () => {});
    expect(first.getState().run).toEqual(other);
    expect(second.getState()).toEqual(initialLabRuns(started));
  });
});
