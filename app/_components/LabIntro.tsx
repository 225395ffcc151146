'use client';

import { useState, type ReactNode } from 'react';
import { variantFor } from '@/content/lab-variants';
import { LabPresetListener } from '@/ui/labPreset';

/** A lab page's words, with its chapter link resolved on the server (the chapters are read from disk there). */
export interface LabIntroFace {
  title: string;
  summary: string;
  /** `name`: "chapter 10: Beyond the calculator"; `section`: the heading's text, where the link goes to one. */
  chapter?: { href: string; name: string; section?: string };
}

/**
 * A lab page's title, summary and chapter link, which follow the preset chosen in the lab (`children`): under a
 * variant's presets they are the variant's. The server renders the first preset's, as the lab itself does, so the
 * page's HTML is the one the lab starts on; the lab tells the chosen preset once it has read its link (?preset=…)
 * and whenever the menu changes it.
 */
export function LabIntro({ own, variants, firstPreset, children }: { own: LabIntroFace; variants: (LabIntroFace & { presets: readonly string[] })[]; firstPreset: string; children: ReactNode }) {
  const [preset, setPreset] = useState(firstPreset);
  const face = variantFor(own, variants, preset);
  return (
    <LabPresetListener.Provider value={setPreset}>
      <h1>{face.title}</h1>
      <p className="lede">{face.summary}</p>
      {face.chapter ? (
        <p className="lab-chapter">
          The ideas behind it are in <a href={face.chapter.href}>{face.chapter.name}</a>
          {face.chapter.section ? (
            <>
              , in its section <em>{face.chapter.section}</em>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {children}
    </LabPresetListener.Provider>
  );
}
