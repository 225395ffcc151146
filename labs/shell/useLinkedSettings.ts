'use client';

/**
 * A lab's settings, preset and backend choice, kept in the page's link: read from the URL once (under the assignment
 * in its fragment, if any), then written back into it on every change, so a link reproduces the run.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { BackendName } from '@/lib/tf/names';
import { presetSettings, type PresetTable, type Schema } from '@/lib/train/config';
import { applyAssignment } from './assignment';
import { decodeSettings, encodeSettings, type Settings } from '@/ui/settings';
import type { AssignmentView } from './useAssignment';

export type BackendChoice = BackendName | 'auto';

export interface LinkedSettings {
  settings: Settings;
  setSettings: Dispatch<SetStateAction<Settings>>;
  preset: string;
  setPreset(preset: string): void;
  backendChoice: BackendChoice;
  setBackendChoice(choice: BackendChoice): void;
  /** False until the link's settings (and assignment) are read. */
  settled: boolean;
}

/** `setNotices` (a state setter, so the same function on every render) receives what was wrong with the link's settings. */
export function useLinkedSettings(schema: Schema, presets: PresetTable, firstPreset: string, assignment: AssignmentView, setNotices: (notices: string[]) => void): LinkedSettings {
  const [settings, setSettings] = useState<Settings>(() => presetSettings(schema, presets[firstPreset]));
  const [preset, setPreset] = useState(firstPreset);
  const [backendChoice, setBackendChoice] = useState<BackendChoice>('auto');
  // The server renders the preset's settings; until the link's settings (and assignment) are read, the lab is marked
  // pending: the deferred boot holds the buttons pressed before then and presses them again once they are in
  // (app/_components/boot/deferred-boot.ts), so no action starts from the settings the server rendered.
  const [settled, setSettled] = useState(false);

  useEffect(() => {
    if (!assignment.ready) return;
    const decoded = decodeSettings(schema, presets, window.location.search, firstPreset);
    const { backend } = decoded;
    const { settings: fromUrl, preset: p, problems } = assignment.assignment ? applyAssignment(assignment.assignment, schema, presets, decoded, window.location.search, firstPreset) : decoded;
    setSettings(fromUrl);
    setPreset(p);
    setBackendChoice(backend);
    setNotices(problems.map((problem) => `Link settings: ${problem}.`));
    setSettled(true);
  }, [schema, presets, firstPreset, assignment, setNotices]);
  useEffect(() => {
    if (!settled) return;
    const query = encodeSettings(schema, presets, settings, preset, firstPreset);
    const backend = backendChoice === 'auto' ? '' : `${query ? '&' : ''}backend=${backendChoice}`;
    const url = `${window.location.pathname}${query || backend ? `?${query}${backend}` : ''}${window.location.hash}`;
    window.history.replaceState(null, '', url);
  }, [settled, schema, presets, settings, preset, backendChoice, firstPreset]);

  return { settings, setSettings, preset, setPreset, backendChoice, setBackendChoice, settled };
}
