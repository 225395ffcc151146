/**
 * The vision lab's task: pictures drawn by the task itself, with questions whose answers it can verify.
 *
 *   a scene    a size × size grid; each cell empty or a shape (square, circle, triangle) in a colour
 *              (red, green, blue, yellow); the lab draws it as SVG from this description
 *   a picture  the scene rasterised to RGB, CELL_PIXELS × CELL_PIXELS per cell, with a little noise seeded by the
 *              scene (the same scene is always the same picture); one patch per cell
 *   questions  "how many red?" (count a colour), "how many squares?" (count a shape), "what colour is at row 2,
 *              column 3?" (an occupied cell's colour), "how many shapes?" (count everything)
 *
 * Prompts are compact codes, one token each part, so every prompt has the same length: "#r?" how many red, "#s?"
 * how many squares, "#*?" how many shapes, "@23" the colour at row 2, column 3 (rows and columns from 1). The answer
 * is a number ("3") or a colour's letter ("r"). Scenes are split into train and held-out pictures by a hash of the
 * scene, as the arithmetic tasks split problems (sampleSplit). Model-free: the model lives in lib/models/vision-lm.ts.
 */
import { createRng, type Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { sampleSplit, type PromptTask, type TaskProblem } from './task';
import { createCharTokenizer, type CharTokenizer } from './tokenizer';

/** One picture, described: the trainer rasterises it for the encoder, the lab draws it as SVG from the same description. */
export type VisionColour = 'red' | 'green' | 'blue' | 'yellow';
export type VisionShape = 'square' | 'circle' | 'triangle';
export interface VisionScene {
  /** Cells per side; the picture is a size × size grid. */
  size: number;
  /** Row-major, size*size entries; null = empty cell. */
  cells: ({ shape: VisionShape; colour: VisionColour } | null)[];
}

export const COLOURS: readonly VisionColour[] = ['red', 'green', 'blue', 'yellow'];
export const SHAPES: readonly VisionShape[] = ['square', 'circle', 'triangle'];
const COLOUR_CODE: Record<VisionColour, string> = { red: 'r', green: 'g', blue: 'b', yellow: 'y' };
const SHAPE_CODE: Record<VisionShape, string> = { square: 's', circle: 'c', triangle: 't' };
const RGB: Record<VisionColour, [number, number, number]> = { red: [1, 0, 0], green: [0, 1, 0], blue: [0, 0, 1], yellow: [1, 1, 0] };
/** Digits, colour and shape letters, '#' (how many), '*' (every shape), '@' (what is at), '?'. */
export const VISION_CHARS = '0123456789rgbysct#*@?';

/** Pixels per cell side: each cell is one patch of 4 × 4 × 3 = 48 values. */
export const CELL_PIXELS = 4;
/** Shape masks on a 4 × 4 cell, row by row ('X' drawn): a linear patch embedding tells them apart by their corners. */
const MASKS: Record<VisionShape, string> = {
  square: 'XXXX' + 'XXXX' + 'XXXX' + 'XXXX',
  circle: '.XX.' + 'XXXX' + 'XXXX' + '.XX.',
  triangle: 'X...' + 'XX..' + 'XXX.' + 'XXXX',
};
/** Standard deviation of the pixel noise. */
export const PIXEL_NOISE = 0.1;

export type VisionQuestionKind = 'count_colour' | 'count_shape' | 'count_all' | 'colour_at';
export const VISION_QUESTION_KINDS: readonly VisionQuestionKind[] = ['count_colour', 'count_shape', 'count_all', 'colour_at'];

export interface VisionProblem extends TaskProblem {
  scene: VisionScene;
  kind: VisionQuestionKind;
  /** The question in words, for the lab ("how many red?"). */
  question: string;
}

export interface VisionTaskOptions {
  /** Cells per side. */
  size: number;
  /** Question kinds, drawn uniformly. */
  kinds: readonly VisionQuestionKind[];
  /** Chance that a cell holds a shape. */
  occupancy: number;
  /** Share of scenes held out. */
  held_out_fraction?: number;
}

export interface VisionTask extends PromptTask<VisionProblem> {
  readonly options: Required<VisionTaskOptions>;
  /** Patches per side (one per cell), and values per patch. */
  readonly patchGrid: number;
  readonly patchDim: number;
  isHeldOut(p: VisionProblem): boolean;
  /** The scene's picture as patches, [size² · patchDim] (row-major cells, each cell's pixels row by row, RGB). */
  patches(scene: VisionScene): Float32Array;
}

/** One string per scene: what the split and the noise are seeded by. */
export function sceneKey(scene: VisionScene): string {
  return `${scene.size}:${scene.cells.map((c) => (c ? COLOUR_CODE[c.colour] + SHAPE_CODE[c.shape] : '..')).join('')}`;
}

/** Asks `kind` about `scene`; `cell` picks the cell for colour_at (it must hold a shape), `colour`/`shape` the counted one. */
export function askAbout(scene: VisionScene, kind: VisionQuestionKind, arg: { colour?: VisionColour; shape?: VisionShape; cell?: number }): VisionProblem {
  const cells = scene.cells;
  const count = (pred: (c: NonNullable<VisionScene['cells'][number]>) => boolean) => cells.filter((c) => c && pred(c)).length;
  let prompt: string, answer: string, question: string;
  if (kind === 'count_colour') {
    const colour = arg.colour!;
    [prompt, answer, question] = [`#${COLOUR_CODE[colour]}?`, String(count((c) => c.colour === colour)), `how many ${colour}?`];
  } else if (kind === 'count_shape') {
    const shape = arg.shape!;
    [prompt, answer, question] = [`#${SHAPE_CODE[shape]}?`, String(count((c) => c.shape === shape)), `how many ${shape}s?`];
  } else if (kind === 'count_all') {
    [prompt, answer, question] = ['#*?', String(count(() => true)), 'how many shapes?'];
  } else {
    const i = arg.cell!;
    const c = cells[i];
    if (!c) throw new Error(`colour_at needs an occupied cell; cell ${i} is empty`);
    const [row, col] = [Math.floor(i / scene.size) + 1, (i % scene.size) + 1];
    [prompt, answer, question] = [`@${row}${col}`, COLOUR_CODE[c.colour], `what colour is at row ${row}, column ${col}?`];
  }
  return { scene, kind, question, prompt, answer, completion: answer };
}

export function createVisionTask(opts: VisionTaskOptions): VisionTask {
  const options: Required<VisionTaskOptions> = { held_out_fraction: 0.1, ...opts };
  const { size, kinds, occupancy, held_out_fraction } = options;
  if (!(Number.isInteger(size) && size >= 2 && size <= 9)) throw new Error(`a vision scene is 2 to 9 cells per side (one digit per row and column), got ${size}`);
  if (kinds.length === 0 || kinds.some((k) => !VISION_QUESTION_KINDS.includes(k))) throw new Error(`question kinds must be some of ${VISION_QUESTION_KINDS.join(', ')}`);
  if (!(occupancy > 0 && occupancy <= 1)) throw new Error(`occupancy must be in (0, 1], got ${occupancy}`);
  const tokenizer: CharTokenizer = createCharTokenizer(VISION_CHARS);
  const P = size * size;
  const patchDim = CELL_PIXELS * CELL_PIXELS * 3;
  const maxCount = String(P).length;

  const drawScene = (rng: Rng): VisionScene => ({
    size,
    cells: Array.from({ length: P }, () => (rng.next() < occupancy ? { shape: SHAPES[rng.int(SHAPES.length)], colour: COLOURS[rng.int(COLOURS.length)] } : null)),
  });
  const draw = (rng: Rng): VisionProblem => {
    const scene = drawScene(rng);
    let kind = kinds[rng.int(kinds.length)];
    const occupied = scene.cells.flatMap((c, i) => (c ? [i] : []));
    if (kind === 'colour_at' && occupied.length === 0) kind = 'count_all'; // an empty picture has no colour to name
    return askAbout(scene, kind, {
      colour: kind === 'count_colour' ? COLOURS[rng.int(COLOURS.length)] : undefined,
      shape: kind === 'count_shape' ? SHAPES[rng.int(SHAPES.length)] : undefined,
      cell: kind === 'colour_at' ? occupied[rng.int(occupied.length)] : undefined,
    });
  };
  const isHeldOut = (p: VisionProblem) => hash32(sceneKey(p.scene)) / 2 ** 32 < held_out_fraction;
  const testSets = new Map<number, VisionProblem[]>();

  return {
    tokenizer,
    options,
    patchGrid: size,
    patchDim,
    promptLength: 4, // BOS + 3
    maxCompletionLength: maxCount + 1, // the longest count, and EOS
    isHeldOut,
    sample: (split, n, rng) => sampleSplit(draw, isHeldOut, split, n, rng),
    testSet(n) {
      let set = testSets.get(n);
      if (!set) {
        set = sampleSplit(draw, isHeldOut, 'test', n, createRng(`vision-test/${sceneKey({ size, cells: [] })}/${kinds.join(',')}/${occupancy}`));
        testSets.set(n, set);
      }
      return set;
    },
    encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
    encodeCompletion: (p) => [...tokenizer.encode(p.completion), tokenizer.eos],
    patches(scene) {
      if (scene.size !== size || scene.cells.length !== P) throw new Error(`this task's scenes are ${size} × ${size}; got ${scene.size} × ${scene.size} with ${scene.cells.length} cells`);
      const noise = createRng(`vision-noise/${sceneKey(scene)}`);
      const out = new Float32Array(P * patchDim);
      scene.cells.forEach((cell, i) => {
        for (let px = 0; px < CELL_PIXELS * CELL_PIXELS; px++) {
          const on = cell !== null && MASKS[cell.shape][px] === 'X';
          for (let ch = 0; ch < 3; ch++) out[i * patchDim + px * 3 + ch] = (on ? RGB[cell!.colour][ch] : 0) + PIXEL_NOISE * noise.normal();
        }
      });
      return out;
    },
  };
}

/** The lab's scenes: 4 × 4 cells, half of them filled, every kind of question but the total (the default preset). */
export const MIXED_KINDS: readonly VisionQuestionKind[] = ['count_colour', 'count_shape', 'colour_at'];
/** The counting preset: 5 × 5 cells, only counting questions, each one an answer spread over the whole picture. */
export const COUNTING_KINDS: readonly VisionQuestionKind[] = ['count_colour', 'count_shape', 'count_all'];
