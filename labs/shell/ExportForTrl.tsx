'use client';

import { lazy, Suspense, useState } from 'react';
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import type { TrainerName } from '@/lib/spec/registry';
import { EXPORT_CHAPTER_LINK } from './exportLink';
import type { Settings } from '@/ui/settings';

// Still importable from here, where the labs' link has always been read (tests/content/export-numbers.test.ts).
export { EXPORT_CHAPTER_LINK };

// The project's templates and the zip library load only when the reader asks for the export.
const ExportDialog = lazy(() => import('./ExportDialog'));

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
          {trainer === 'vision'
            ? 'These settings as a TRL project for the vision-language model Qwen2.5-VL-3B-Instruct on the lab’s own pictures: data, SFT, this run, evaluation, multi-GPU configs.'
            : 'These settings as a TRL project for Qwen3-0.6B on GSM8K: data, SFT, this run, evaluation, multi-GPU configs.'}{' '}
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
