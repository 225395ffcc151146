import { describe, expect, it } from 'vitest';
import { createCalculatorEnv, evaluate, replayEpisode, toolPolicyText } from '@/lib/tasks/environment';
import { createCharTokenizer } from '@/lib/tasks/tokenizer';

const tok = createCharTokenizer();
const env = createCalculatorEnv(tok);

describe('calculator environment', () => {
  it('evaluates + - * with precedence and refuses anything else', () => {
    expect(evaluate('3*7')).toBe(21);
    expect(evaluate('2+3*4-5')).toBe(9);
    expect(evaluate('3--4')).toBe(7);
    for (const bad of ['', '3*', '*3', '3**4', '3 4', '1/2']) expect(evaluate(bad)).toBeNull();
  });

  it('answers a closed bracket with =value, and nothing otherwise', () => {
    expect(tok.decode(env.respond(tok.encode('[3*7]'))!)).toBe('=21');
    expect(tok.decode(env.respond(tok.encode('#### 1 [12+30]'))!)).toBe('=42');
    expect(env.respond(tok.encode('[3*7'))).toBeNull();
    expect(env.respond(tok.encode('3*7]'))).toBeNull();
    expect(env.respond(tok.encode('[3*]'))).toBeNull();
  });

  it('replays a scripted policy into tokens plus a mask that excludes the observation', () => {
    const { completion, mask } = replayEpisode(env, tok, toolPolicyText({ a: 3, b: 7, op: '*', answer: '21' }));
    expect(tok.decode(completion)).toBe('[3*7]=21 #### 21');
    const text = tok.decode(completion, { raw: true });
    const masked = [...text.replace('<eos>', 'E')].filter((_, i) => mask[i] === 0).join('');
    expect(masked).toBe('=21');
    expect(completion[completion.length - 1]).toBe(tok.eos);
    expect(mask[mask.length - 1]).toBe(1);
  });
});
