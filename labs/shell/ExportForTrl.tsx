'use client';

import { lazy, Suspense, useMemo, useState } from 'react';
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import { exportStatement } from '@/lib/spec/export';
import type { TrainerName } from '@/lib/spec/registry';
import { EXPORT_CHAPTER_LINK } from './exportLink';
import type { Settings } from '@/ui/settings';

// Still importable from here, where the labs' link has always been read (tests/content/export-numbers.test.ts).
export { EXPORT_CHAPTER_LINK };

// The project's templates and the zip library load only when the reader asks for the export.
const ExportDialog = lazy(() => import('./ExportDialog'));

/**
 * "Export for TRL": the lab's current settings as a runnable TRL project for a real GPU, downloaded as one zip. Before
 * any click it says what the project of these settings holds and what it leaves out (the spec's statement, which the
 * project's README prints too); where there is no project, it says why and offers no button.
 */
export function ExportForTrl({ trainer, settings, preset, customReward }: { trainer: TrainerName; settings: Settings; preset: string; customReward?: CustomRewardExport }) {
  const [open, setOpen] = useState(false);
  const statement = useMemo(() => exportStatement(trainer, settings), [trainer, settings]);
  const chapter = <a href={EXPORT_CHAPTER_LINK}>What the project holds (chapter 7)</a>;
  if ('refusal' in statement) {
    return (
      <section className="lab-section" aria-label="Export for TRL">
        <h3>Take it to a real GPU</h3>
        <p className="setting-help" role="note">
          {statement.refusal} {chapter}
        </p>
      </section>
    );
  }
  const [writes, ...leftOut] = statement.sentences;
  return (
    <section className="lab-section" aria-label="Export for TRL">
      <h3>Take it to a real GPU</h3>
      <div className="lab-runs-actions">
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          Export for TRL
        </button>
        <span className="setting-help">
          {writes} {chapter}
        </span>
      </div>
      {leftOut.length ? (
        <ul className="setting-help" aria-label="Not exported">
          {leftOut.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <Suspense fallback={<p className="lab-notice">Preparing the project…</p>}>
          <ExportDialog trainer={trainer} settings={settings} preset={preset} customReward={customReward} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
