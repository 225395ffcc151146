import { describe, expect, it } from 'vitest';
import { toLabEpisode, validateTrajectory } from '@/lib/agentdata';
import { CALCULATOR_TOOL, TWO_CALL_TRAJECTORY } from '@/lib/agentdata/examples';
import { createCalculatorEnv, replayEpisode } from '@/lib/tasks/environment';
import { AGENT_CHARS, createCharTokenizer } from '@/lib/tasks/tokenizer';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const reason = (t: unknown) => {
  const e = toLabEpisode(t);
  if (e.ok) throw new Error('expected no conversion');
  return e.reason;
};

describe('toLabEpisode: chat trajectory → the agent lab tokens and loss mask', () => {
  it('gives the exact tokens, mask and roles for the two-call example (written out by hand)', () => {
    const e = toLabEpisode(TWO_CALL_TRAJECTORY);
    if (!e.ok) throw new Error(e.reason);
    // prettier-ignore
    const expected: [string, 0 | 1][] = [
      ['<bos>', 0], ['2', 0], ['3', 0], ['*', 0], ['4', 0], ['7', 0], ['+', 0], ['5', 0], ['1', 0], ['2', 0], ['=', 0],
      ['[', 1], ['2', 1], ['3', 1], ['*', 1], ['4', 1], ['7', 1], [']', 1],
      ['=', 0], ['1', 0], ['0', 0], ['8', 0], ['1', 0],
      ['[', 1], ['1', 1], ['0', 1], ['8', 1], ['1', 1], ['+', 1], ['5', 1], ['1', 1], ['2', 1], [']', 1],
      ['=', 0], ['1', 0], ['5', 0], ['9', 0], ['3', 0],
      [' ', 1], ['#', 1], ['#', 1], ['#', 1], ['#', 1], [' ', 1], ['1', 1], ['5', 1], ['9', 1], ['3', 1], ['<eos>', 1],
    ];
    expect(e.tokens).toEqual(expected.map(([t]) => t));
    expect(e.mask).toEqual(expected.map(([, m]) => m));
    expect(e.tokens).toHaveLength(49);
    expect(e.mask.filter((m) => m === 1)).toHaveLength(28);
    expect(e.roles.filter((r) => r === 'prompt')).toHaveLength(11);
    expect(e.roles.filter((r) => r === 'observation')).toHaveLength(10);
    expect(e.prompt).toBe('<bos>23*47+512=');
    expect(e.completion).toBe('[23*47]=1081[1081+512]=1593 #### 1593<eos>');
  });

  it('agrees token for token with the lab environment replaying the same calls', () => {
    const e = toLabEpisode(JSON.stringify(TWO_CALL_TRAJECTORY));
    if (!e.ok) throw new Error(e.reason);
    const tok = createCharTokenizer(AGENT_CHARS);
    const { completion, mask } = replayEpisode(createCalculatorEnv(tok), tok, '[23*47][1081+512] #### 1593');
    const start = e.roles.indexOf('policy');
    expect(e.tokens.slice(start)).toEqual(completion.map((id) => tok.vocab[id]));
    expect(e.mask.slice(start)).toEqual(mask);
  });

  it('reads "347*6", "What is 347 * 6?", "#### n" and text ending in a number', () => {
    const one = (user: string, answer: string) => ({
      tools: [CALCULATOR_TOOL],
      messages: [
        { role: 'user', content: user },
        { role: 'assistant', content: null, tool_calls: [call('c', 'calculator', { expression: '347 * 6' })] },
        { role: 'tool', tool_call_id: 'c', content: '2082' },
        { role: 'assistant', content: answer },
      ],
    });
    for (const [user, answer] of [['347*6', '2082'], ['What is 347 * 6?', '#### 2082'], ['347*6=', 'So the total is 2082.']]) {
      const e = toLabEpisode(one(user, answer));
      expect(e.ok && [e.prompt, e.completion]).toEqual(['<bos>347*6=', '[347*6]=2082 #### 2082<eos>']);
    }
    const noCall = { messages: [{ role: 'user', content: '2+2' }, { role: 'assistant', content: '4' }] };
    expect(toLabEpisode(noCall)).toMatchObject({ ok: true, completion: ' #### 4<eos>' });
  });

  it('honours AgentInstruct’s per-turn "loss" flag: a turn marked false is never trained on as the policy’s, and a bad flag is named', () => {
    const scripted = clone(TWO_CALL_TRAJECTORY);
    (scripted.messages[1] as Record<string, unknown>).loss = false;
    expect(validateTrajectory(scripted).ok).toBe(true); // valid data: the flag is part of the format
    expect(reason(scripted)).toMatch(/messages\[1\]: this assistant turn is marked "loss": false \(scripted, not the model's work\)/);
    const trained = clone(TWO_CALL_TRAJECTORY);
    (trained.messages[1] as Record<string, unknown>).loss = true;
    expect(toLabEpisode(trained)).toEqual(toLabEpisode(TWO_CALL_TRAJECTORY));
    const bad = clone(TWO_CALL_TRAJECTORY);
    (bad.messages[1] as Record<string, unknown>).loss = 'no';
    const result = validateTrajectory(bad);
    expect(result.errors).toEqual([expect.objectContaining({ code: 'invalid_shape', path: 'messages[1].loss' })]);
  });

  it('explains why a trajectory has no lab tokens', () => {
    const t = () => clone(TWO_CALL_TRAJECTORY);
    const other = t();
    other.tools.push({ type: 'function', function: { name: 'search', parameters: { type: 'object' } } } as never);
    other.messages[1].tool_calls = [call('call_1', 'search', { q: 'x' })] as never;
    expect(reason(other)).toMatch(/only tool is "calculator"; "search"/);

    const chatty = t();
    chatty.messages[1].content = 'Let me compute 23*47 first.' as never;
    expect(reason(chatty)).toMatch(/free text beside tool calls/);

    const wrong = t();
    wrong.messages[2].content = '1000';
    expect(reason(wrong)).toMatch(/the result says 1000, but the lab's calculator answers 23\*47 = 1081/);

    const notInt = t();
    notInt.messages[2].content = '1081.0';
    expect(reason(notInt)).toMatch(/must be an integer/);

    const slash = t();
    slash.messages[1].tool_calls![0].function.arguments = '{"expression": "2346/2"}';
    expect(reason(slash)).toMatch(/vocabulary is "0123456789\+-\*=# ,\[\]\?"\); "2346\/2"/);

    const none = t();
    none.messages[0].content = 'Add the two numbers.';
    expect(reason(none)).toMatch(/holds no arithmetic expression/);

    const two = t();
    two.messages[0].content = 'What is 23*47+512, and 2+2?';
    expect(reason(two)).toMatch(/holds 2 expressions \(23\*47\+512, 2\+2\)/);

    const system = t();
    system.messages.unshift({ role: 'system', content: 'Be brief.' });
    expect(reason(system)).toMatch(/must start with the user message, not a system message/);

    const words = t();
    words.messages[5].content = 'Fifteen hundred and ninety-three.';
    expect(reason(words)).toMatch(/final answer must be a number/);

    const invalid = t();
    invalid.messages.pop();
    expect(reason(invalid)).toMatch(/not valid \(after_final_answer/);
  });
});
