'use client';

import { BACKEND_ORDER } from '@/lib/tf/names';
import type { RunState } from '@/lib/train/run';
import type { BackendChoice } from './useLinkedSettings';

/** The lab's controls row: Train (Resume on a paused run), Pause, Reset, and the preset and backend to train with. */
export function LabToolbar(props: {
  state: RunState;
  hasRun: boolean;
  /** Train would resume the paused run (nothing changed since it started): the button says so. */
  resumes: boolean;
  /** A run is starting or a sweep is under way: Train waits. */
  held: boolean;
  preset: string;
  presetNames: string[];
  backendChoice: BackendChoice;
  onTrain(): void;
  onPause(): void;
  onReset(): void;
  onPreset(name: string): void;
  onBackend(choice: BackendChoice): void;
}) {
  const { state, hasRun, held, preset, presetNames, backendChoice } = props;
  return (
    <div className="lab-toolbar">
      <button type="button" className="lab-primary" onClick={props.onTrain} disabled={held || state === 'running'}>
        {props.resumes ? 'Resume' : 'Train'}
      </button>
      <button type="button" onClick={props.onPause} disabled={state !== 'running'}>
        Pause
      </button>
      <button type="button" onClick={props.onReset} disabled={!hasRun}>
        Reset
      </button>
      <label className="lab-inline">
        Preset{' '}
        <select value={preset} onChange={(e) => props.onPreset(e.target.value)}>
          {presetNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="lab-inline">
        Backend{' '}
        <select value={backendChoice} onChange={(e) => props.onBackend(e.target.value as BackendChoice)}>
          <option value="auto">auto</option>
          {BACKEND_ORDER.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
