'use client';

import { useEffect, useState } from 'react';
import type { RunState } from '@/lib/train/run';
import type { ActionResult } from '@/lib/train/trainer';
import type { LabAction } from './labDefinition';

/** A download link for bytes an action made; the object URL is freed when the link goes. */
function FileLink({ file }: { file: { name: string; bytes: Uint8Array } }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const href = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: 'application/octet-stream' }));
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [file]);
  return url ? (
    <a href={url} download={file.name}>
      Download {file.name} ({(file.bytes.length / 1024).toFixed(1)} KB)
    </a>
  ) : null;
}

/** The trainer's actions (Trainer.actions) as buttons, each with its last result and any file it made. */
export function ActionsPanel({
  actions,
  results,
  state,
  onAction,
}: {
  actions: LabAction[];
  results: Record<string, ActionResult>;
  state: RunState;
  onAction(name: string): void;
}) {
  return (
    <section className="lab-section" aria-label="Actions">
      <h3>Actions</h3>
      <p className="inspector-legend">They act on the current run between steps: pause it or let it finish first.</p>
      {actions.map((a) => {
        const result = results[a.name];
        return (
          <div className="lab-action" key={a.name}>
            <button type="button" onClick={() => onAction(a.name)} disabled={!(state === 'paused' || state === 'done' || state === 'stopped')}>
              {a.label}
            </button>{' '}
            <span className="setting-help">{a.help}</span>
            {result ? (
              <p className="lab-action-result" role="status" aria-label={`${a.label}: result`}>
                {result.summary}{' '}
                {result.file ? <FileLink file={result.file} /> : null}
              </p>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
