import { createRng, type Rng } from '@/lib/random';
import { columnSums, hash32 } from './arithmetic';
import { sampleSplit, type PromptTask, type TaskProblem } from './task';
import { createCharTokenizer, type CharTokenizer } from './tokenizer';

/**
 * Addition graded by how many columns carry digits, for self-improvement. Every problem is written at one fixed
 * width, with column sums of two characters each (units first, carries included), so every column has the same
 * positions in every problem and a model sized for the full width holds every difficulty from the start:
 *   difficulty 2, width 3   "<bos>470+850="  →  "00,12,13 #### 1320<eos>"   (47 + 85 one column up)
 *   difficulty 3, width 3   "<bos>347+285="  →  "12,13,06 #### 632<eos>"
 * Difficulty d: the nonzero digits of the two operands span exactly d adjacent columns (from the lowest nonzero digit
 * to the highest). Short sums are drawn at every offset, so every column position sees every digit in the
 * demonstrations; what a harder problem adds is more columns working together in one sum. Why not simply longer
 * numbers: the model's positions are learned, and a column that only ever held zeros in training stays a blank the
 * model cannot read (measured: 0% on 3-digit sums after any amount of training on 2-digit ones, padded to 4).
 */
export interface CurriculumProblem extends TaskProblem {
  a: number;
  b: number;
  /** Columns from the lowest to the highest nonzero digit of either operand (1 for 0 + 0). */
  difficulty: number;
}

export interface AdditionCurriculum {
  /** Digits every operand is written with: the hardest difficulty. */
  readonly width: number;
  readonly tokenizer: CharTokenizer;
  /** The problem a + b, written at this width. */
  problem(a: number, b: number): CurriculumProblem;
  isHeldOut(a: number, b: number): boolean;
  /** The task restricted to one difficulty: training draws, a fixed held-out test set, the shared encoders. */
  at(difficulty: number): PromptTask<CurriculumProblem>;
}

export interface CurriculumOptions {
  width: number;
  /** Share of problems kept out of training at every difficulty, by hash. */
  held_out_fraction?: number;
  split_seed?: number;
}

/** Columns from the lowest to the highest nonzero digit of either operand; 1 when both are 0. */
export function columnSpan(a: number, b: number): number {
  const digits = [String(a).split('').reverse(), String(b).split('').reverse()];
  const nonzero = digits.flatMap((ds) => ds.flatMap((c, i) => (c === '0' ? [] : [i])));
  return nonzero.length === 0 ? 1 : Math.max(...nonzero) - Math.min(...nonzero) + 1;
}

/** Column sums (2 characters each, comma-separated), " #### ", an answer of up to width + 1 digits, EOS. */
export function curriculumCompletionLength(width: number): number {
  return 3 * width - 1 + ' #### '.length + width + 1 + 1;
}

export function createAdditionCurriculum({ width, held_out_fraction = 0.1, split_seed = 0 }: CurriculumOptions): AdditionCurriculum {
  if (!Number.isInteger(width) || width < 2 || width > 6) throw new Error(`width must be an integer in 2..6, got ${width}`);
  if (!(held_out_fraction > 0 && held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer();
  const isHeldOut = (a: number, b: number) => hash32(`${a}+${b}|${split_seed}`) / 2 ** 32 < held_out_fraction;
  const promptLength = 1 + 2 * width + 2;
  const maxCompletionLength = curriculumCompletionLength(width);

  const problem = (a: number, b: number): CurriculumProblem => {
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || Math.max(a, b) >= 10 ** width) {
      throw new Error(`operands must be integers in [0, ${10 ** width}), got ${a} and ${b}`);
    }
    const sums = columnSums(a, b, width).map((s) => String(s).padStart(2, '0'));
    const answer = String(a + b);
    const prompt = `${String(a).padStart(width, '0')}+${String(b).padStart(width, '0')}=`;
    return { a, b, difficulty: columnSpan(a, b), prompt, completion: `${sums.join(',')} #### ${answer}`, answer };
  };

  /** d-column digits for both operands, shifted up a random number of columns, until the span is exactly d. */
  const draw = (d: number, rng: Rng): CurriculumProblem => {
    for (;;) {
      const shift = 10 ** rng.int(width - d + 1);
      const [x, y] = [rng.int(10 ** d), rng.int(10 ** d)];
      if (columnSpan(x, y) === d) return problem(x * shift, y * shift);
    }
  };

  const views = new Map<number, PromptTask<CurriculumProblem>>();
  const at = (d: number): PromptTask<CurriculumProblem> => {
    if (!Number.isInteger(d) || d < 1 || d > width) throw new Error(`difficulty must be an integer in 1..${width}, got ${d}`);
    const cached = views.get(d);
    if (cached) return cached;
    const view: PromptTask<CurriculumProblem> = {
      tokenizer,
      promptLength,
      maxCompletionLength,
      sample: (split, n, rng) => sampleSplit((r) => draw(d, r), (p) => isHeldOut(p.a, p.b), split, n, rng),
      testSet(n) {
        // A fixed draw from its own seed: every run at this width and split scores the same problems. One-column
        // sums are only a few hundred problems, a tenth held out: then the set is what there is.
        const rng = createRng(`curriculum-test/${width}/${d}/${split_seed}`);
        const out: CurriculumProblem[] = [];
        const seen = new Set<string>();
        for (let tries = 0; out.length < n && tries < 200 * n; tries++) {
          const p = draw(d, rng);
          if (!isHeldOut(p.a, p.b) || seen.has(p.prompt)) continue;
          seen.add(p.prompt);
          out.push(p);
        }
        return out;
      },
      encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
      encodeCompletion: (p) => [...tokenizer.encode(p.completion), tokenizer.eos],
    };
    views.set(d, view);
    return view;
  };

  return { width, tokenizer, problem, isHeldOut, at };
}
