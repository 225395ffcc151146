/**
 * The grader's work kept in the instructor's browser (localStorage), so a reload does not lose an hour of grading:
 * the assignment file's text and the rows graded so far. Read back through zod (storage is outside the page's
 * control: another tab, an older version) and through parseAssignmentFile, which checks the hash again; anything
 * that does not read is dropped, never trusted.
 */
import { z } from 'zod';
import { parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import type { GradeRow } from '@/lib/teach/grade';

const KEY = 'arl-grader-v1';
/** Rows carry no weights: 100 files are ~100 KB, well under a browser's 5 MB per site. */
const MAX_STORED_CHARS = 3_000_000;

const text = z.string().max(5000);
const rowSchema = z.object({
  file: text,
  student: text,
  status: z.enum(['ok', 'late', 'invalid', 'tampered']),
  detail: text,
  claimed: z.number().nullable(),
  measured: z.number().nullable(),
  goalMet: z.boolean().nullable(),
  flags: z.array(text).max(20),
  weightsSha256: z.string().max(64).nullable(),
  exercises: z.record(z.string().max(40), z.object({ passed: z.boolean(), detail: text, inputs: text.optional() })).optional(),
  seed: z.number().nullable(),
  submitted: z.string().max(40).nullable(),
  received: z.string().max(40).nullable(),
  sameWeightsGroup: z.number().optional(),
  // Kept so a reload still shows made / not made (zod would otherwise drop the field).
  prediction: z.object({ made: z.boolean(), choice: z.string().max(40).nullable(), label: text.nullable(), problem: text }).optional(),
});
const storedSchema = z.object({ assignment: z.string().max(400_000), rows: z.array(rowSchema).max(5000), received: z.record(z.string().max(300), z.string().max(40)).optional(), savedAt: z.string().max(40) });

export interface SavedGrading {
  assignment: AssignmentFile;
  assignmentText: string;
  rows: GradeRow[];
  /** Upload times by file name, as loaded. */
  received: Record<string, string>;
  savedAt: string;
}

const storage = () => {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage blocked
  }
};

export async function loadSavedGrading(): Promise<SavedGrading | null> {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return null;
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const assignment = await parseAssignmentFile(parsed.data.assignment);
    return { assignment, assignmentText: parsed.data.assignment, rows: parsed.data.rows as GradeRow[], received: parsed.data.received ?? {}, savedAt: parsed.data.savedAt };
  } catch {
    return null;
  }
}

/** Keeps the grading; a full or blocked storage only loses the copy (the page says nothing it cannot keep). */
export function saveGrading(assignmentText: string, rows: GradeRow[], received: Record<string, string>): boolean {
  try {
    const value = JSON.stringify({ assignment: assignmentText, rows, received, savedAt: new Date().toISOString() });
    if (value.length > MAX_STORED_CHARS) return false;
    storage()?.setItem(KEY, value);
    return true;
  } catch {
    return false;
  }
}

export function clearSavedGrading(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing kept to clear
  }
}
