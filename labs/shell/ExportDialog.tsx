'use client';

import { useEffect, useState } from 'react';
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import type { Project } from '@/lib/export/types';
import { zipProject } from '@/lib/export/zip';
import { buildExport, exportOf } from '@/lib/spec/export';
import { configProblem, resolve } from '@/lib/train/config';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { EXPORT_CHAPTER_LINK } from './exportLink';
import type { Settings } from '@/ui/settings';
import { ScrollBox } from './ScrollBox';

const STATUS = { copied: 'copied', changed: 'changed', none: 'no counterpart' } as const;

function download(project: Project): void {
  const bytes = zipProject(project);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
  a.download = `${project.name}.zip`;
  a.click();
  URL.revokeObjectURL(a.href);
}

/** The short name of the model the trainer's project trains ('Qwen3-0.6B'). */
function exportModel(trainer: TrainerName): string {
  const spec = TRAINERS[trainer].export;
  return 'model' in spec ? (spec.model.split('/').at(-1) ?? spec.model) : '';
}

/** The export's mapping table, its warnings and the download: the same files as `npm run export`. */
export default function ExportDialog({
  trainer,
  settings,
  preset,
  customReward,
  onClose,
}: {
  trainer: TrainerName;
  settings: Settings;
  preset: string;
  /** The reader's reward function, when the lab trains with it: exported as custom_reward.js and .py. */
  customReward?: CustomRewardExport;
  onClose: () => void;
}) {
  const [result, setResult] = useState<{ project: Project } | { problem: string } | null>(null);
  useEffect(() => {
    let current = true;
    const show = (next: { project: Project } | { problem: string }) => current && setResult(next);
    const chosen = exportOf(trainer);
    if ('refusal' in chosen) show({ problem: chosen.refusal });
    else {
      setResult(null);
      // The builder loads on first use (its templates are not part of the lab's page).
      Promise.resolve()
        .then(() => buildExport(trainer, resolve(TRAINERS[trainer].schema, settings) as Settings, preset, customReward))
        .then(
          (project) => show({ project }),
          (error: unknown) => show({ problem: `These settings cannot be exported: ${configProblem(error)}.` }),
        );
    }
    return () => {
      current = false;
    };
  }, [trainer, settings, preset, customReward]);
  const model = exportModel(trainer);

  return (
    <div className="lab-export" role="dialog" aria-label="Export for TRL">
      {result === null ? (
        <p className="lab-notice">Preparing the project…</p>
      ) : 'problem' in result ? (
        <p className="lab-notice" role="alert">
          {result.problem}
        </p>
      ) : (
        <>
          {result.project.plan.warnings.map((w) => (
            <p key={w} className="lab-warning" role="alert">
              <strong>Warning: </strong>
              {w}
            </p>
          ))}
          <div className="lab-runs-actions">
            <button type="button" className="lab-primary" onClick={() => download(result.project)}>
              Download {result.project.name}.zip
            </button>
            <span className="setting-help">{result.project.files.map((f) => f.path).join(', ')}. Then follow its README.md, or <a href={EXPORT_CHAPTER_LINK}>chapter 7’s walk-through</a>.</span>
          </div>
          <p className="inspector-legend">
            Every setting of this lab, and what it becomes in TRL. “Changed” means the lab’s value suits only its tiny model: the script uses one right for{' '}
            {model} and names the lab’s in a comment.
          </p>
          <ScrollBox label="What carries over to TRL">
            <table className="runs-summary" aria-label="What carries over to TRL">
              <thead>
                <tr>
                  <th scope="col">lab field</th>
                  <th scope="col">value</th>
                  <th scope="col">in TRL</th>
                  <th scope="col">note</th>
                </tr>
              </thead>
              <tbody>
                {result.project.plan.rows.map((r) => (
                  <tr key={r.field} data-status={r.status}>
                    <th scope="row">
                      <code>{r.field}</code>
                    </th>
                    <td>{String(r.value)}</td>
                    <td>
                      {r.status === 'copied' ? null : <strong>{STATUS[r.status]}: </strong>}
                      {r.status === 'none' ? null : <code>{r.target}</code>}
                    </td>
                    <td>{r.note}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </>
      )}
      <div className="lab-runs-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
