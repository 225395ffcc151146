import { describe, expect, it } from 'vitest';
import { createCalculatorEnv, evaluate, operations, replayEpisode, toolStats } from '@/lib/tasks/environment';
import { AGENT_CHARS, createCharTokenizer } from '@/lib/tasks/tokenizer';

const tok = createCharTokenizer(AGENT_CHARS);
const env = createCalculatorEnv(tok);
const reply = (text: string) => {
  const r = env.respond(tok.encode(text));
  return r && { text: tok.decode(r.tokens), done: r.done };
};

describe('calculator environment', () => {
  it('evaluates + - * with precedence and refuses anything else', () => {
    expect(evaluate('3*7')).toBe(21);
    expect(evaluate('2+3*4-5')).toBe(9);
    expect(evaluate('3--4')).toBe(7);
    expect(evaluate('007*6')).toBe(42);
    for (const bad of ['', '3*', '*3', '3**4', '3 4', '1/2']) expect(evaluate(bad)).toBeNull();
  });

  it('answers a closed bracket with =value, and stays silent otherwise', () => {
    expect(reply('[3*7]')).toEqual({ text: '=21', done: false });
    expect(reply('#### 1 [12+30]')).toEqual({ text: '=42', done: false });
    expect(reply('[3*7')).toBeNull();
    expect(reply('3*7')).toBeNull();
  });

  it('answers a malformed call with "=?", never an exception', () => {
    for (const bad of ['[3*]', '3*7]', '[]', '[# 4]', '[99999999*99]']) expect(reply(bad), bad).toEqual({ text: '=?', done: false });
  });

  it('ends the episode at a call beyond the cap', () => {
    const capped = createCalculatorEnv(tok, { maxCalls: 1 });
    expect(capped.respond(tok.encode('[3*7]'))?.done).toBe(false);
    expect(capped.respond(tok.encode('[3*7]=21[2*2]'))).toEqual({ tokens: [], done: true });
  });

  it('with maxOperations 1, answers one operation per call and gives a longer call the error reply', () => {
    expect([operations('347*6'), operations('347*6+58'), operations('-3*-4'), operations('3--4'), operations('12')]).toEqual([1, 2, 1, 1, 0]);
    const one = createCalculatorEnv(tok, { maxOperations: 1 });
    const answer = (text: string) => tok.decode(one.respond(tok.encode(text))!.tokens);
    expect(answer('[347*6]')).toBe('=2082');
    expect(answer('[347*6]=2082 [2082+58]')).toBe('=2140');
    expect(answer('[347*6+58]')).toBe('=?');
    expect(reply('[347*6+58]')).toEqual({ text: '=2140', done: false }); // without the option: any number of operations
  });

  it('fails the calls its `fails` predicate picks, given the episode so far, and answers the others', () => {
    const seen: string[] = [];
    const flaky = createCalculatorEnv(tok, { fails: (text) => (seen.push(text), text === '[3*7]') });
    expect(tok.decode(flaky.respond(tok.encode('[3*7]'))!.tokens)).toBe('=?');
    expect(tok.decode(flaky.respond(tok.encode('[3*7]=? [3*7]'))!.tokens)).toBe('=21');
    expect(seen).toEqual(['[3*7]', '[3*7]=? [3*7]']);
    expect(tok.decode(flaky.respond(tok.encode('[3*]'))!.tokens)).toBe('=?'); // malformed: failed before it is asked
    expect(seen).toHaveLength(2);
  });

  it('needs a vocabulary with "?" for its error answer, and says so', () => {
    expect(() => createCalculatorEnv(createCharTokenizer())).toThrow(/unknown character "\?"/);
  });

  it('replays a scripted policy into tokens plus a mask that excludes the observation', () => {
    const { completion, mask } = replayEpisode(env, tok, '[3*7] #### 21');
    expect(tok.decode(completion)).toBe('[3*7]=21 #### 21');
    const text = tok.decode(completion, { raw: true });
    const masked = [...text.replace('<eos>', 'E')].filter((_, i) => mask[i] === 0).join('');
    expect(masked).toBe('=21');
    expect(completion[completion.length - 1]).toBe(tok.eos);
    expect(mask[mask.length - 1]).toBe(1);
  });

  it('counts calls, failed calls and turns in an episode', () => {
    expect(toolStats('[347*6]=2082 #### 2082')).toEqual({ calls: 1, failures: 0, turns: 2, retried: false });
    expect(toolStats('[3*]=?[3*7]=21 #### 21')).toEqual({ calls: 2, failures: 1, turns: 3, retried: true });
    expect(toolStats('#### 42')).toEqual({ calls: 0, failures: 0, turns: 1, retried: false });
  });

  it('says whether the policy called again after its first failed call', () => {
    expect(toolStats('[347*6]=? [347*6]=2082 [2082+58]=2140 #### 2140').retried).toBe(true);
    expect(toolStats('[347*6]=2082 [2082+58]=? #### 2140').retried).toBe(false);
    expect(toolStats('[347*6]=? #### 2082').retried).toBe(false);
    expect(toolStats('[347*6]=? [347*6]').retried).toBe(true); // a call beyond the cap: made, never answered
  });
});
