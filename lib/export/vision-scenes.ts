/**
 * scenes/*.jsonl of the vision project: the lab's own problems (lib/tasks/vision.ts) with the run's grid size,
 * occupancy and questions, written as text for the project's Python to draw (python/vision.ts draw_scene).
 */
import { createRng } from '@/lib/random';
import { COUNTING_KINDS, createVisionTask, MIXED_KINDS, type VisionProblem } from '@/lib/tasks/vision';
import { sftStepsBehind } from '@/lib/train/vision-config';
import type { Settings } from './rules';

const COLOUR_WORD: Record<string, string> = { r: 'red', g: 'green', b: 'blue', y: 'yellow' };
const SHAPE_CODE: Record<string, string> = { square: 's', circle: 'c', triangle: 't' };

/** One problem as scenes/*.jsonl stores it: the scene in the lab's cell codes ("rs" red square, ".." empty). */
export interface SceneRow {
  size: number;
  cells: string;
  kind: string;
  question: string;
  answer: string;
}

export function sceneRow(p: VisionProblem): SceneRow {
  const cells = p.scene.cells.map((c) => (c ? c.colour[0] + SHAPE_CODE[c.shape] : '..')).join('');
  // The lab answers a colour with its letter (one token); the VLM answers with the word.
  const answer = p.kind === 'colour_at' ? COLOUR_WORD[p.answer] : p.answer;
  return { size: p.scene.size, cells, kind: p.kind, question: p.question, answer };
}

/** Train problems for both phases, from the lab's train split, seeded; and the lab's own held-out set. */
export function visionScenes(settings: Settings): { train: SceneRow[]; test: SceneRow[] } {
  const task = createVisionTask({
    size: settings.grid_size as number,
    kinds: settings.questions === 'counting' ? COUNTING_KINDS : MIXED_KINDS,
    occupancy: settings.occupancy as number,
  });
  const grpoPrompts = Math.max(0, (settings.max_steps as number) - (settings.sft_steps as number)) * ((settings.per_device_train_batch_size as number) / (settings.num_generations as number));
  const sftExamples = sftStepsBehind(settings) * (settings.sft_batch_size as number); // the checkpoint's SFT included
  // As many problems as the longer phase consumes (each phase reads the file from the start), at most 20,000.
  const n = Math.min(20_000, Math.max(64, grpoPrompts, sftExamples));
  const train = task.sample('train', n, createRng(`vision-export/${String(settings.seed)}`)).map(sceneRow);
  const test = task.testSet(settings.eval_samples as number).map(sceneRow);
  return { train, test };
}

/** Rows as JSON Lines, one problem a line. */
export const jsonl = (rows: readonly SceneRow[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
