/**
 * The vision lab's words for what it draws: a picture described cell by cell (the SVG's text alternative, what a
 * screen reader reads instead of the picture), and an answer's attention over the picture's patches summed up. Pure
 * functions of the trainer's inspector data (lib/train/vision-inspector.ts), so a unit test can read them.
 */
import type { VisionGroupSample, VisionScene } from '@/lib/train/vision-inspector';

/** "row 2, column 3" (rows and columns counted from 1, as a reader counts them). */
export const place = (row: number, column: number) => `row ${row + 1}, column ${column + 1}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The picture in words, row by row: "A 4 by 4 grid with 3 shapes. Row 1: a red square in column 2. Row 3: a blue
 * circle in column 1, a yellow triangle in column 4. Every other cell is empty."
 */
export function describeScene(scene: VisionScene): string {
  const { size, cells } = scene;
  const rows: string[] = [];
  let shapes = 0;
  for (let r = 0; r < size; r++) {
    const here: string[] = [];
    for (let c = 0; c < size; c++) {
      const cell = cells[r * size + c];
      if (cell) here.push(`a ${cell.colour} ${cell.shape} in column ${c + 1}`);
    }
    shapes += here.length;
    if (here.length) rows.push(`Row ${r + 1}: ${here.join(', ')}.`);
  }
  const head = `A ${size} by ${size} grid with ${plural(shapes, 'shape')}.`;
  if (shapes === 0) return `${head} Every cell is empty.`;
  return [head, ...rows, shapes === size * size ? 'No cell is empty.' : 'Every other cell is empty.'].join(' ');
}

/** The task answers "what colour is at …?" with a colour's letter (lib/tasks/vision.ts): the lab spells it out too. */
const COLOUR_LETTERS: Record<string, string> = { r: 'red', g: 'green', b: 'blue', y: 'yellow' };
export const spelled = (answer: string) => (answer in COLOUR_LETTERS ? `${answer} (${COLOUR_LETTERS[answer]})` : answer);

/** The question and the verified answer: the picture's accessible name. */
export const pictureName = (group: Pick<VisionGroupSample, 'question' | 'truth'>) => `Picture for “${group.question}” (the answer is ${spelled(group.truth)})`;

/** The cell a question names ("what colour is at row 2, column 3?"), as [row, column] from 0; null for a question about the whole picture. */
export function askedCell(question: string): [number, number] | null {
  const m = /\brow (\d+), column (\d+)\b/.exec(question);
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

/** The cells of `scene` that patch (row, column) of a patchGrid × patchGrid grid covers, as [row, column] pairs. */
export function patchCells(size: number, patchGrid: number, row: number, column: number): [number, number][] {
  const span = (i: number) => {
    const from = Math.floor((i * size) / patchGrid);
    const to = Math.max(from + 1, Math.floor(((i + 1) * size) / patchGrid));
    return Array.from({ length: to - from }, (_, k) => from + k);
  };
  return span(row).flatMap((r) => span(column).map((c): [number, number] => [r, c]));
}

export interface PatchWeight {
  row: number;
  column: number;
  weight: number;
}

/** The patches in order of attention, largest first (ties in reading order). */
export function rankPatches(attention: readonly number[], patchGrid: number): PatchWeight[] {
  return attention
    .map((weight, i) => ({ row: Math.floor(i / patchGrid), column: i % patchGrid, weight }))
    .sort((a, b) => b.weight - a.weight || a.row - b.row || a.column - b.column);
}

const percent = (v: number) => `${Math.round(100 * v)}%`;

/** What patch (row, column) shows, when a patch is one cell: "a red square" or "empty"; else null. */
function patchContent(scene: VisionScene, patchGrid: number, p: PatchWeight): string | null {
  const cells = patchCells(scene.size, patchGrid, p.row, p.column);
  if (cells.length !== 1) return null;
  const cell = scene.cells[cells[0][0] * scene.size + cells[0][1]];
  return cell ? `a ${cell.colour} ${cell.shape}` : 'empty';
}

/**
 * Where answer 1 looked, in a sentence: the share of its attention that went to the picture and the `top` patches
 * that got most of it, "62% of it went to the picture, most to row 2, column 3 (a red square, 21%), ..."; with a
 * `question` that names a cell, also what that cell got.
 */
export function describeAttention(scene: VisionScene, attention: readonly number[], patchGrid: number, top = 3, question?: string): string {
  const total = attention.reduce((a, b) => a + b, 0);
  const ranked = rankPatches(attention, patchGrid)
    .filter((p) => p.weight > 0)
    .slice(0, top)
    .map((p) => {
      const content = patchContent(scene, patchGrid, p);
      return `${place(p.row, p.column)} (${content ? `${content}, ` : ''}${percent(p.weight)})`;
    });
  const head = `${percent(total)} of it went to the picture, the rest to the question`;
  const most = ranked.length ? `${head}; most to ${ranked.join(', ')}.` : `${head}.`;
  // Where the question points at one cell and a patch is one cell: did the answer look there?
  const asked = askedCell(question ?? '');
  if (!asked || patchGrid !== scene.size || asked[0] >= patchGrid || asked[1] >= patchGrid) return most;
  const rank = rankPatches(attention, patchGrid).findIndex((p) => p.row === asked[0] && p.column === asked[1]);
  return `${most} The cell the question names, ${place(...asked)}, got ${percent(attention[asked[0] * patchGrid + asked[1]])} (${ordinal(rank + 1)} of ${patchGrid * patchGrid} patches).`;
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
