/**
 * The team lab's task: a referential game (Lewis's signalling game, as Lazaridou et al. 2017 play it with neural
 * agents) split between two roles so that neither can solve it alone.
 *
 *   receiver sees  "<bos>7352|"    a board of four digits, then the channel
 *   sender sees    "<bos>2|"       which position is the target (0..3), and nothing of the board
 *   sender writes  up to max_message_length tokens (the message), or stops early with EOS
 *   receiver reads "<bos>7352|q."  the board and the message (padded with '.' to the channel's length)
 *   receiver writes one token, the answer: right when it is the target digit (here "5")
 *
 * Without a message the receiver can only guess a position (or the board's most common digit): about a third right.
 * With a message that names the position it can be right every time, so the team reward pays for a protocol.
 * Model-free, like every task: the two models and their rollouts live in lib/train/team-trainer.ts.
 */
import { sampleSplit } from './task';
import type { Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { createCharTokenizer, type CharTokenizer } from './tokenizer';

/** Digits for the board and the answer, '|' between a role's input and the channel, '.' for a blank channel slot. */
export const TEAM_CHARS = '0123456789|.';
export const BOARD_SIZE = 4;
export const BLANK = '.';

export interface TeamProblem {
  /** The receiver's private input: BOARD_SIZE digits, e.g. "7352". */
  board: string;
  /** The sender's private input: the target position, 0..BOARD_SIZE-1. */
  target: number;
  /** The target digit: the only right answer. */
  answer: string;
}

export interface TeamTask {
  readonly tokenizer: CharTokenizer;
  /** Tokens of the sender's prompt, BOS included. */
  readonly senderPromptLength: number;
  /** Tokens of the receiver's prompt for a channel of `messageLength` tokens, BOS included. */
  receiverPromptLength(messageLength: number): number;
  isHeldOut(p: TeamProblem): boolean;
  sample(split: 'train' | 'test', n: number, rng: Rng): TeamProblem[];
  /** n held-out problems in a fixed order (the evaluation set). */
  testSet(n: number): TeamProblem[];
  encodeSenderPrompt(p: TeamProblem): number[];
  /**
   * The receiver's prompt: its board, then the message as the channel delivers it, exactly `messageLength` tokens
   * (the message up to its EOS, cut to the channel, padded with '.'; all '.' when the channel is blank).
   */
  encodeReceiverPrompt(p: TeamProblem, message: readonly number[], messageLength: number, blank: boolean): number[];
}

export function teamProblem(board: string, target: number): TeamProblem {
  if (!new RegExp(`^\\d{${BOARD_SIZE}}$`).test(board)) throw new Error(`a board is ${BOARD_SIZE} digits, got ${JSON.stringify(board)}`);
  if (!(Number.isInteger(target) && target >= 0 && target < BOARD_SIZE)) throw new Error(`the target is a position 0..${BOARD_SIZE - 1}, got ${target}`);
  return { board, target, answer: board[target] };
}

/** Share of problems held out from training (by a hash of board and target, as the arithmetic task splits). */
const HELD_OUT_FRACTION = 0.1;

export function createTeamTask(): TeamTask {
  const tokenizer = createCharTokenizer(TEAM_CHARS);
  const [blank] = tokenizer.encode(BLANK);
  const [bar] = tokenizer.encode('|');
  const isHeldOut = (p: TeamProblem) => hash32(`${p.board}|${p.target}`) / 2 ** 32 < HELD_OUT_FRACTION;
  const draw = (rng: Rng) => teamProblem(Array.from({ length: BOARD_SIZE }, () => String(rng.int(10))).join(''), rng.int(BOARD_SIZE));
  return {
    tokenizer,
    senderPromptLength: 3,
    receiverPromptLength: (m) => 1 + BOARD_SIZE + 1 + m,
    isHeldOut,
    sample: (split, n, rng) => sampleSplit(draw, isHeldOut, split, n, rng),
    testSet(n) {
      // Every problem once, in a fixed scrambled order (stride 7919, a prime, modulo the number of problems).
      const total = 10 ** BOARD_SIZE * BOARD_SIZE;
      const out: TeamProblem[] = [];
      for (let i = 0, k = 0; i < total && out.length < n; i++, k = (k + 7919) % total) {
        const p = teamProblem(String(Math.floor(k / BOARD_SIZE)).padStart(BOARD_SIZE, '0'), k % BOARD_SIZE);
        if (isHeldOut(p)) out.push(p);
      }
      return out;
    },
    encodeSenderPrompt: (p) => [tokenizer.bos, ...tokenizer.encode(String(p.target)), bar],
    encodeReceiverPrompt(p, message, messageLength, isBlank) {
      const end = message.indexOf(tokenizer.eos);
      const said = isBlank ? [] : (end < 0 ? message : message.slice(0, end)).slice(0, messageLength).filter((t) => t !== tokenizer.pad);
      return [tokenizer.bos, ...tokenizer.encode(p.board), bar, ...said, ...Array<number>(messageLength - said.length).fill(blank)];
    },
  };
}

/**
 * How much the messages say about the sender's private input, from (message, target) pairs:
 * - decodability: the accuracy of the best decoder that reads the message alone (for each message, guess its most
 *   frequent target), on the same pairs. 1/BOARD_SIZE-ish when messages say nothing, 1 when each names its target.
 * - mutualInformation: I(target; message) in bits, from the empirical joint (at most log2 BOARD_SIZE = 2 bits).
 * - meanings: for each message, how often it was sent for each target.
 */
export function messageInformation(pairs: readonly { message: string; target: number }[]): {
  decodability: number;
  mutualInformation: number;
  meanings: Map<string, number[]>;
} {
  const meanings = new Map<string, number[]>();
  for (const { message, target } of pairs) {
    const counts = meanings.get(message) ?? Array<number>(BOARD_SIZE).fill(0);
    counts[target] += 1;
    meanings.set(message, counts);
  }
  const n = pairs.length;
  if (n === 0) return { decodability: 0, mutualInformation: 0, meanings };
  const targetTotals = Array<number>(BOARD_SIZE).fill(0);
  for (const counts of meanings.values()) counts.forEach((c, t) => (targetTotals[t] += c));
  let decoded = 0;
  let mi = 0;
  for (const counts of meanings.values()) {
    const perMessage = counts.reduce((a, b) => a + b, 0);
    decoded += Math.max(...counts);
    counts.forEach((c, t) => {
      if (c > 0) mi += (c / n) * Math.log2((c * n) / (perMessage * targetTotals[t]));
    });
  }
  return { decodability: decoded / n, mutualInformation: Math.max(0, mi), meanings };
}
