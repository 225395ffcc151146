/**
 * Which of a round's samples self-improvement keeps (tfjs-free, so tests and the lab can use it directly). Samples
 * come in groups of num_generations per problem, group after group, as the trainer draws them.
 */
import { parseAnswer } from '@/lib/tasks/rewards';

export type SampleFilter = 'verifier' | 'majority' | 'none';

export interface FilterInput {
  /** Decoded completions, group after group ("12,5 #### 52"). */
  texts: string[];
  /** Whether each completion ended with EOS: a cut-off one is never kept. */
  finished: boolean[];
  /** The true answer of each completion's problem: the verifier's only input beyond the text. */
  answers: string[];
  /** Samples per problem. */
  groupSize: number;
}

/** The integer a completion answers, normalised ("052" → "52"), or null when it has none. */
export function answerOf(text: string): string | null {
  const raw = parseAnswer(text);
  return raw === null ? null : String(BigInt(raw));
}

/** Whether each completion's answer equals its problem's answer: what the verifier sees, and what precision counts. */
export function verified(texts: string[], answers: string[]): boolean[] {
  return texts.map((t, i) => answerOf(t) === String(BigInt(answers[i])));
}

/**
 * The indices kept. verifier: right answers (STaR, rejection-sampling fine-tuning). majority: with no verifier, the
 * samples whose answer more than half of their group gives (self-consistency, Wang et al. 2022, used as a label).
 * none: every finished sample.
 */
export function filterSamples(filter: SampleFilter, { texts, finished, answers, groupSize }: FilterInput): number[] {
  if (groupSize < 1 || texts.length % groupSize !== 0) throw new Error(`filterSamples: ${texts.length} samples do not split into groups of ${groupSize}`);
  if (finished.length !== texts.length || answers.length !== texts.length) throw new Error('filterSamples: texts, finished and answers must have the same length');
  const parsed = texts.map((t, i) => (finished[i] ? answerOf(t) : null));
  if (filter === 'none') return texts.flatMap((_, i) => (finished[i] ? [i] : []));
  if (filter === 'verifier') {
    const right = verified(texts, answers);
    return texts.flatMap((_, i) => (finished[i] && right[i] ? [i] : []));
  }
  const kept: number[] = [];
  for (let start = 0; start < texts.length; start += groupSize) {
    const votes = new Map<string, number>();
    for (let i = start; i < start + groupSize; i++) if (parsed[i] !== null) votes.set(parsed[i]!, (votes.get(parsed[i]!) ?? 0) + 1);
    const winner = [...votes].find(([, n]) => n > groupSize / 2)?.[0];
    if (winner === undefined) continue;
    for (let i = start; i < start + groupSize; i++) if (parsed[i] === winner) kept.push(i);
  }
  return kept;
}

/** The share of kept samples whose answer is really right (0 when none are kept). */
export function keptPrecision(kept: number[], right: boolean[]): number {
  return kept.length === 0 ? 0 : kept.filter((i) => right[i]).length / kept.length;
}
