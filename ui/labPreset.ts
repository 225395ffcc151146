'use client';

/**
 * The preset chosen in a lab's menu, told to the page around the lab: a lab's own page shows the title, summary and
 * chapter of that preset's variant (content/lab-variants.ts), and the menu lives inside the lab. The page provides
 * where to tell it; a lab embedded in a chapter has no such page around it, and nothing listens.
 */
import { createContext, useContext, useEffect } from 'react';

export const LabPresetListener = createContext<((preset: string) => void) | null>(null);

/** Tells the page around the lab which preset is chosen, now and whenever it changes. */
export function useTellPreset(preset: string): void {
  const listener = useContext(LabPresetListener);
  useEffect(() => {
    listener?.(preset);
  }, [listener, preset]);
}
