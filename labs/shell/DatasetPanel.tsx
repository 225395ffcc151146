'use client';

/**
 * The reader's own data: a JSONL file dropped or picked, checked whole on the page (every line, then the model's
 * vocabulary and context) before it replaces the lab's task. A file with any problem is refused with the line it is
 * on, and the data in use stays as it was: nothing is half-loaded.
 */
import { useState } from 'react';
import { checkFits, DATASET_MAX_BYTES, DatasetError, EXAMPLE_LINE, parseDataset, type Dataset, type DatasetKind } from '@/lib/tasks/dataset';
import { datasetLimits } from '@/lib/train/dataset-task';

export interface LoadedDataset {
  name: string;
  dataset: Dataset;
}

/** A file's text as a dataset of `kind` that fits the lab's model, or the one-line reason it does not. */
export function readDatasetFile(text: string, kind: DatasetKind, sampledCompletion: number | undefined): Dataset {
  const dataset = parseDataset(text, kind);
  checkFits(dataset, datasetLimits(), sampledCompletion);
  return dataset;
}

export function DatasetPanel(props: {
  kind: DatasetKind;
  loaded: LoadedDataset | null;
  /** GRPO samples this many tokens after each prompt: its prompts must leave room for them. */
  sampledCompletion?: number;
  disabled: boolean;
  note?: string;
  onLoad(loaded: LoadedDataset | null): void;
}) {
  const { kind, loaded, sampledCompletion, disabled, note, onLoad } = props;
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const limits = datasetLimits();

  const read = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > DATASET_MAX_BYTES) return setError(`Could not load ${file.name}: it is ${(file.size / 1e6).toFixed(1)} MB, and a dataset is at most ${DATASET_MAX_BYTES / 1e6} MB. Nothing was changed.`);
    try {
      const dataset = readDatasetFile(await file.text(), kind, sampledCompletion);
      setError(null);
      onLoad({ name: file.name, dataset });
    } catch (e) {
      if (!(e instanceof DatasetError)) throw e;
      setError(`Could not load ${file.name}: ${e.message}. Nothing was changed.`);
    }
  };
  const counts = loaded && { train: loaded.dataset.records.filter((r) => r.split === 'train').length, test: loaded.dataset.records.filter((r) => r.split === 'test').length };

  return (
    <details className="lab-section lab-dataset" open={loaded !== null || error !== null || undefined}>
      <summary>Your dataset{loaded ? ` (${loaded.name})` : ''}</summary>
      <p className="setting-help">
        A JSONL file, one problem per line: <code>{EXAMPLE_LINE[kind]}</code>, with an optional <code>&quot;split&quot;: &quot;train&quot;</code> or{' '}
        <code>&quot;test&quot;</code> (otherwise about 10% of the prompts are held out, by a hash). {kind === 'prompt-answer' ? 'The answer is what rewards and evaluation compare with the integer after "####"; SFT learns to write "#### answer" (or the answer itself if it holds its "####"). ' : ''}
        The model knows only the characters <code>{limits.chars}</code> and has a context of {limits.contextLength} tokens
        {sampledCompletion !== undefined ? `: with max_completion_length ${sampledCompletion}, prompts of at most ${limits.contextLength - sampledCompletion} characters` : ''}.
      </p>
      {note ? <p className="lab-notice">{note}</p> : null}
      <div
        className={`lab-dropzone${over ? ' lab-dropzone-over' : ''}`}
        onDragOver={(e) => {
          if (disabled) return;
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (!disabled) void read(e.dataTransfer.files[0]);
        }}
      >
        <label className="lab-file">
          Drop a .jsonl file here, or choose one{' '}
          <input type="file" accept=".jsonl,.json,.txt,application/jsonl,application/x-ndjson" disabled={disabled} onChange={(e) => void read(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
        </label>
      </div>
      {error ? (
        <p className="lab-error" role="alert">
          {error}
        </p>
      ) : null}
      {loaded && counts ? (
        <p className="lab-notice" role="status">
          Training on {loaded.name}: {counts.train} training {counts.train === 1 ? 'line' : 'lines'}, {counts.test} held out for evaluation.{' '}
          <button type="button" disabled={disabled} onClick={() => onLoad(null)}>
            Use the lab’s own data
          </button>
        </p>
      ) : null}
    </details>
  );
}
