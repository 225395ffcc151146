/**
 * The team lab's starting receiver: a listener taught, by SFT, to read one convention, "a position's digit in the
 * channel names that position" ("7352|2." → "5"), and to guess a digit of its board when the channel is blank. Like
 * an LLM that already follows instructions before a team is fine-tuned, it gives the untrained sender a language to
 * discover: from scratch (both roles untrained) no protocol forms at this scale (the from_scratch preset).
 */
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { BOARD_SIZE, type TeamProblem, type TeamTask } from '@/lib/tasks/team';
import { generate } from '@/lib/models/generate';
import type { SftSource } from './sft-trainer';
import { TEAM_MAX_MESSAGE_LENGTH } from './team-config';

/** How the shipped receiver is made (scripts/build-checkpoints.ts, seed 0). */
export const TEAM_RECEIVER_SFT = { blankRate: 0.25, steps: 250 } as const;

/** The convention's message for a target: its position as a digit. */
export const conventionMessage = (task: TeamTask, p: TeamProblem) => task.tokenizer.encode(String(p.target));

/**
 * Demonstrations of the convention on channels of every length the lab allows (one length per batch, drawn at
 * random: a batch's prompts share a length), so the receiver reads whatever max_message_length a run sets.
 * Evaluated greedily on the held-out problems with a two-token channel, as the default run has.
 */
export function teamReceiverSftSource(task: TeamTask, opts: { blankRate: number; evalSamples: number }): SftSource {
  const tok = task.tokenizer;
  const testSet = task.testSet(opts.evalSamples);
  return {
    batch(n, rng) {
      const L = 1 + rng.int(TEAM_MAX_MESSAGE_LENGTH);
      const problems = task.sample('train', n, rng);
      const prompts: number[][] = [];
      const completions: number[][] = [];
      for (const p of problems) {
        const blank = rng.next() < opts.blankRate;
        // With a blank channel the demonstration points at a random position: a guess, the best there is.
        const answer = blank ? p.board[rng.int(BOARD_SIZE)] : p.answer;
        prompts.push(task.encodeReceiverPrompt(p, conventionMessage(task, p), L, blank));
        completions.push(tok.encode(answer));
      }
      return { prompts, completions, mask: completions.map((c) => c.map(() => 1)) };
    },
    async evaluate(model: TinyLM) {
      const accuracy = async (blank: boolean) => {
        const prompts = testSet.map((p) => task.encodeReceiverPrompt(p, conventionMessage(task, p), 2, blank));
        const gen = await generate(model, prompts, { temperature: 0, max_completion_length: 1, eos_id: tok.eos, pad_id: tok.pad }, createRng('eval'));
        return gen.completions.filter((c, i) => c[0] === tok.encode(testSet[i].answer)[0]).length / testSet.length;
      };
      return { 'eval/accuracy': await accuracy(false), 'eval/accuracy_blank_channel': await accuracy(true) };
    },
    pad: tok.pad,
  };
}
