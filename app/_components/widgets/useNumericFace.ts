'use client';

import { useEffect, useState } from 'react';
import { loadNumericFace, type NumericFace } from './load-rl';

/**
 * The core's numeric face, loaded (with tfjs) only once `wanted` turns true — a widget's first edit — so a
 * chapter page downloads no tfjs for a reader who only reads. `loadError` says what failed, for the widget.
 */
export function useNumericFace(wanted: boolean, what: string): { face: NumericFace | null; loadError: string | null } {
  const [face, setFace] = useState<NumericFace | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted || face) return;
    let current = true;
    loadNumericFace().then(
      (f) => current && (setFace(f), setLoadError(null)),
      (e: unknown) => current && setLoadError(`Could not load ${what} (${(e as Error).message}).`),
    );
    return () => {
      current = false;
    };
  }, [wanted, face, what]);
  return { face, loadError };
}
