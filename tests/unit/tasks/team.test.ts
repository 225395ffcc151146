import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { BOARD_SIZE, createTeamTask, messageInformation, teamProblem } from '@/lib/tasks/team';

describe('team task', () => {
  const task = createTeamTask();
  const tok = task.tokenizer;

  it('splits what the answer needs: the sender sees only the target, the receiver only the board and the channel', () => {
    const p = teamProblem('7352', 2);
    expect(p.answer).toBe('5');
    expect(tok.decode(task.encodeSenderPrompt(p))).toBe('2|');
    expect(task.encodeSenderPrompt(p)).toHaveLength(task.senderPromptLength);
    const prompt = task.encodeReceiverPrompt(p, tok.encode('2'), 2, false);
    expect(tok.decode(prompt)).toBe('7352|2.');
    expect(prompt).toHaveLength(task.receiverPromptLength(2));
  });

  it('delivers the message up to its EOS, cut to the channel, padded with blanks; a blank channel delivers only blanks', () => {
    const p = teamProblem('0000', 0);
    expect(tok.decode(task.encodeReceiverPrompt(p, [...tok.encode('4'), tok.eos, tok.pad], 3, false))).toBe('0000|4..');
    expect(tok.decode(task.encodeReceiverPrompt(p, tok.encode('1234'), 2, false))).toBe('0000|12');
    expect(tok.decode(task.encodeReceiverPrompt(p, [tok.eos, tok.pad], 2, false))).toBe('0000|..');
    expect(tok.decode(task.encodeReceiverPrompt(p, tok.encode('12'), 2, true))).toBe('0000|..');
  });

  it('refuses a malformed problem with one clear error', () => {
    expect(() => teamProblem('735', 0)).toThrow(/4 digits/);
    expect(() => teamProblem('7352', 4)).toThrow(/position 0..3/);
  });

  it('never trains on a held-out problem, and its test set is held out and fixed', () => {
    const train = task.sample('train', 500, createRng(1));
    expect(train.some((p) => task.isHeldOut(p))).toBe(false);
    const test = task.testSet(200);
    expect(test).toHaveLength(200);
    expect(test.every((p) => task.isHeldOut(p))).toBe(true);
    expect(task.testSet(200)).toEqual(test);
    // Every target position is represented.
    expect(new Set(test.map((p) => p.target)).size).toBe(BOARD_SIZE);
  });
});

describe('messageInformation (hand-computed)', () => {
  it('a message per target: decodability 1 and I = H(target) = 1 bit for two equally likely targets', () => {
    const r = messageInformation([
      { message: 'a', target: 0 },
      { message: 'a', target: 0 },
      { message: 'b', target: 1 },
      { message: 'b', target: 1 },
    ]);
    expect(r.decodability).toBe(1);
    expect(r.mutualInformation).toBeCloseTo(1, 12);
    expect(r.meanings.get('a')).toEqual([2, 0, 0, 0]);
  });

  it('one message for everything says nothing: decodability is the commonest target’s share, I = 0', () => {
    const r = messageInformation([
      { message: 'x', target: 0 },
      { message: 'x', target: 0 },
      { message: 'x', target: 1 },
      { message: 'x', target: 2 },
    ]);
    expect(r.decodability).toBe(0.5);
    expect(r.mutualInformation).toBe(0);
  });

  it('a partly informative message: the joint (a,0) 1/2, (a,1) 1/4, (b,1) 1/4 gives I ≈ 0.311 bits, by hand', () => {
    const r = messageInformation([
      { message: 'a', target: 0 },
      { message: 'a', target: 0 },
      { message: 'a', target: 1 },
      { message: 'b', target: 1 },
    ]);
    // I = Σ p(m,t) log2 p(m,t)/(p(m)p(t)): (a,0): 1/2·log2((1/2)/(3/4·1/2)) = 1/2·log2(4/3); (a,1): 1/4·log2((1/4)/(3/4·1/2)) = 1/4·log2(2/3);
    // (b,1): 1/4·log2((1/4)/(1/4·1/2)) = 1/4·1.
    const expected = 0.5 * Math.log2(4 / 3) + 0.25 * Math.log2(2 / 3) + 0.25;
    expect(r.mutualInformation).toBeCloseTo(expected, 12);
    expect(r.decodability).toBe(0.75);
  });

  it('no pairs: nothing decoded', () => {
    expect(messageInformation([]).decodability).toBe(0);
  });
});
