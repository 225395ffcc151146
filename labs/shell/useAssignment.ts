'use client';

import { useEffect, useState } from 'react';
import { LINK_KEY, readAssignmentFragment, type SharedAssignment } from '@/lib/teach/assignment';
import type { TrainerName } from '@/lib/spec/registry';
import { perStudentSeeds } from '@/lib/teach/seeds';

export interface AssignmentView {
  /** False while the link's assignment is being checked (its hash is computed asynchronously). */
  ready: boolean;
  assignment: SharedAssignment | null;
  /** Why the link's assignment cannot be used (edited, damaged, for another lab); the lab then runs as usual. */
  error: string | null;
  locked: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();
const hasAssignment = () => typeof window !== 'undefined' && new URLSearchParams(window.location.hash.slice(1)).has(LINK_KEY);

/** The assignment in the page's fragment (#assignment=…), checked against its hash; a lab without one is unchanged. */
export function useAssignment(trainer: TrainerName): AssignmentView {
  // No assignment in the link: ready at once, so the lab reads its settings exactly as before.
  const [view, setView] = useState<AssignmentView>(() => ({ ready: !hasAssignment(), assignment: null, error: null, locked: NONE }));
  useEffect(() => {
    if (!hasAssignment()) return;
    let live = true;
    const done = (next: Omit<AssignmentView, 'ready'>) => live && setView({ ready: true, ...next });
    readAssignmentFragment(window.location.hash).then(
      (assignment) => {
        if (assignment && assignment.trainer !== trainer) done({ assignment: null, error: `This link’s assignment is for the ${assignment.lab} lab, not this one.`, locked: NONE });
        // Under per-student seeds the seed is the student's own (set from their id): locked to it as any locked field.
        else done({ assignment, error: null, locked: new Set([...(assignment?.locked ?? []), ...(assignment && perStudentSeeds(assignment) ? ['seed'] : [])]) });
      },
      (error: Error) => done({ assignment: null, error: `This link’s assignment cannot be used (${error.message}). Ask your instructor for the link again.`, locked: NONE }),
    );
    return () => {
      live = false;
    };
  }, [trainer]);
  return view;
}
