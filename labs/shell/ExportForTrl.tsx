'use client';

import { lazy, Suspense, useState } from 'react';
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { EXPORT_CHAPTER_LINK } from './exportLink';
import type { Settings } from '@/ui/settings';

// Still importable from here, where the labs' link has always been read (tests/content/export-numbers.test.ts).
export { EXPORT_CHAPTER_LINK };

// The project's templates and the zip library load only when the reader asks for the export.
const ExportDialog = lazy(() => import('./ExportDialog'));

/** What the trainer's spec says its project holds, or why it has none. */
function exportPitch(trainer: TrainerName): string {
  const spec = TRAINERS[trainer].export;
  return 'refusal' in spec ? `This lab has no TRL project: ${spec.refusal}` : spec.pitch;
}

/** "Export for TRL": the lab's current settings as a runnable TRL project for a real GPU, downloaded as one zip. */
export function ExportForTrl({ trainer, settings, preset, customReward }: { trainer: TrainerName; settings: Settings; preset: string; customReward?: CustomRewardExport }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="lab-section" aria-label="Export for TRL">
      <h3>Take it to a real GPU</h3>
      <div className="lab-runs-actions">
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          Export for TRL
        </button>
        <span className="setting-help">
          {exportPitch(trainer)}{' '}
          <a href={EXPORT_CHAPTER_LINK}>What the project holds (chapter 7)</a>
        </span>
      </div>
      {open ? (
        <Suspense fallback={<p className="lab-notice">Preparing the project…</p>}>
          <ExportDialog trainer={trainer} settings={settings} preset={preset} customReward={customReward} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
