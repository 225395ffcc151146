/**
 * The ids of the code exercises (content/exercises.ts), alone: what assignments and the chapter compiler check ids
 * against, without loading the exercises themselves (statements, solutions, usual mistakes) into a lab page. A
 * test keeps this list equal to the catalogue's.
 */
export const EXERCISE_IDS = ['lora-forward', 'discounted-returns', 'gae', 'clipped-surrogate', 'dpo-loss', 'grpo-advantages', 'k3-kl', 'loss-aggregation', 'gspo-loss'] as const;

export type ExerciseId = (typeof EXERCISE_IDS)[number];

export const isExerciseId = (id: unknown): id is ExerciseId => typeof id === 'string' && (EXERCISE_IDS as readonly string[]).includes(id);
