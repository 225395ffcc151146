'use client';

import { MAX_RUNS } from './runs';

/** The runs on the charts as files: export the current run, import one to overlay, clear the saved ones. */
export function RunsPanel({
  canExport,
  canClear,
  onExport,
  onImport,
  onClear,
}: {
  canExport: boolean;
  canClear: boolean;
  onExport(): void;
  onImport(file: File | undefined): Promise<void>;
  onClear(): void;
}) {
  return (
    <section className="lab-section" aria-label="Runs">
      <h3>Runs</h3>
      <p>
        Up to {MAX_RUNS} runs overlay on the charts, labelled by the settings that differ. Reset keeps the last run for comparison.
      </p>
      <div className="lab-runs-actions">
        <button type="button" onClick={onExport} disabled={!canExport}>
          Export run (JSON)
        </button>
        <label className="lab-file">
          Import run{' '}
          <input type="file" accept="application/json,.json" onChange={(e) => void onImport(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
        </label>
        <button type="button" onClick={onClear} disabled={!canClear}>
          Clear saved runs
        </button>
      </div>
    </section>
  );
}
