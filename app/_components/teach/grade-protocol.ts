/** Messages between the grader page and its worker. Types only: the page loads no tfjs. */
import type { AssignmentFile } from '@/lib/teach/assignment';
import type { GradeRow } from '@/lib/teach/grade';

/** received: the file's upload time (ISO), from the instructor's upload-times file, or null. */
export type ToGrader = { type: 'grade'; id: number; name: string; text: string; assignment: AssignmentFile; received: string | null };
export type FromGrader = { type: 'row'; id: number; row: GradeRow };
