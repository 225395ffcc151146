/** Messages between the grader page and its worker. Types only: the page loads no tfjs. */
import type { AssignmentFile } from '@/lib/teach/assignment';
import type { GradeRow } from '@/lib/teach/grade';

export type ToGrader = { type: 'grade'; id: number; name: string; text: string; assignment: AssignmentFile };
export type FromGrader = { type: 'row'; id: number; row: GradeRow };
