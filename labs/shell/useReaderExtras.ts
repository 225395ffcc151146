'use client';

/**
 * What the reader brings to a lab besides settings: their reward function and their dataset, and what the two add to
 * a fresh run. An assignment trains on its lab's own reward and data, so under one they add nothing.
 */
import { useState } from 'react';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { LoadedDataset } from './DatasetPanel';
import { useCustomReward, type CustomReward } from './useCustomReward';
import type { LabExtras } from './useLabWorker';

export interface ReaderExtras {
  customReward: CustomReward;
  dataset: LoadedDataset | null;
  setDataset(dataset: LoadedDataset | null): void;
  /**
   * What a fresh run takes besides its settings: the reader's dataset, and their reward function loaded into a fresh
   * sandbox. Null when the reward function cannot be loaded (the notice says why): no run starts.
   */
  prepare(): Promise<LabExtras | null>;
}

export function useReaderExtras(trainer: TrainerName, underAssignment: boolean, setNotices: (notices: string[]) => void): ReaderExtras {
  const customReward = useCustomReward(trainer);
  const [dataset, setDataset] = useState<LoadedDataset | null>(null);
  const { accepts } = TRAINERS[trainer];
  const prepare = async (): Promise<LabExtras | null> => {
    if (underAssignment) return {}; // an assignment trains on its lab's own reward and data
    const extras: LabExtras = { dataset: accepts.dataset ? dataset?.dataset : undefined };
    if (accepts.reward && customReward.enabled) {
      const prepared = await customReward.prepare();
      if ('error' in prepared) {
        setNotices(['Training did not start: your reward function could not be loaded (the reason is under “Your reward function”).']);
        return null;
      }
      extras.reward = prepared.reward;
    }
    return extras;
  };
  return { customReward, dataset, setDataset, prepare };
}
