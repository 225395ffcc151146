/**
 * Per-student seeds. Runs are deterministic for a seed, so a class that trains on one seed hands in identical
 * weights and a "same weights" flag cannot tell copying from honest work. An assignment made by today's version
 * gives each student a seed of their own, derived from the assignment's id and their student id: every student can
 * compute theirs (the lab does it when they type their id), and so can the grader, which therefore knows which seed
 * each file must have been trained on. An instructor who wants one seed for the class locks `seed` on purpose.
 * No tfjs.
 */
import { createRng } from '@/lib/random';
import type { FieldValue } from '@/lib/train/config';
import { runSettingsOf, type TrainerName } from '@/lib/spec/registry';

/** How students' seeds are chosen: derived per student, or the one locked for the whole class. */
export type Seeding = 'per_student' | 'locked';
export const SEEDINGS = ['per_student', 'locked'] as const;

/** The largest seed every trainer accepts (their schemas' `seed` max). */
const MAX_SEED = 2 ** 31 - 1;

/**
 * The form of a student id that identifies the student: Unicode-normalized, trimmed, inner spaces collapsed, case
 * folded. "S1234 " and "s1234" are one student, in the seed and in the gradebook.
 */
export function studentKey(student: string): string {
  return student.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The seed a student trains on under assignment `assignmentId` (deterministic, in [0, 2^31 - 1)). */
export function studentSeed(assignmentId: string, student: string): number {
  return createRng(`agentic-rl-lab/student-seed/${assignmentId}/${studentKey(student)}`).int(MAX_SEED);
}

/** Whether an assignment gives each student a seed of their own (version 1 files had no such field: one seed). */
export const perStudentSeeds = (a: { seeding?: Seeding }) => a.seeding === 'per_student';

/**
 * The settings a student's run must have started from: the assignment's as a run uses them (a field the file predates
 * at its `absentMeans`), with the student's own seed where it applies.
 */
export function settingsForStudent(a: { id: string; trainer: TrainerName; seeding?: Seeding; settings: Record<string, FieldValue> }, student: string): Record<string, FieldValue> {
  const settings = runSettingsOf(a.trainer, a.settings);
  return perStudentSeeds(a) ? { ...settings, seed: studentSeed(a.id, student) } : settings;
}
