'use client';

/** The finished runs kept to overlay on the charts: archived from the lab's own runs or imported from run files. */
import { useState } from 'react';
import type { Schema } from '@/lib/train/config';
import type { TrainerName } from '@/lib/spec/registry';
import { importRun, MAX_FILE_BYTES, MAX_RUNS, type SavedRun } from './runs';

export interface SavedRuns {
  saved: SavedRun[];
  /** Adds a run, dropping the oldest beyond MAX_RUNS - 1 (the current run is one of the MAX_RUNS). */
  keep(run: SavedRun): void;
  clear(): void;
  /** Reads a run file the reader picked; the notice says what was imported, or why nothing was changed. */
  importFile(file: File | undefined): Promise<void>;
}

export function useSavedRuns(trainer: TrainerName, schema: Schema, setNotices: (notices: string[]) => void): SavedRuns {
  const [saved, setSaved] = useState<SavedRun[]>([]);
  const keep = (run: SavedRun) => setSaved((runs) => [...runs, run].slice(-(MAX_RUNS - 1)));
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setNotices([`Could not import ${file.name}: it is ${(file.size / 1e6).toFixed(1)} MB, and a run export is at most ${MAX_FILE_BYTES / 1e6} MB. Nothing was changed.`]);
      return;
    }
    try {
      const run = importRun(await file.text(), trainer, schema);
      keep(run);
      setNotices([`Imported ${file.name}: ${run.history.filter((l) => l.kind === 'train').length} steps, overlaid on the charts.`]);
    } catch (error) {
      setNotices([`Could not import ${file.name}: ${(error as Error).message}. Nothing was changed.`]);
    }
  };
  return { saved, keep, clear: () => setSaved([]), importFile };
}
