/** Messages between a page and the exercises' reference worker (reference.worker.ts). Types only: no tfjs. */
export type ToReference = { id: number; exercise: string; cases: unknown[][] };
export type FromReference = { id: number; values: unknown[] } | { id: number; error: string };
