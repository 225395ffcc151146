import { describe, expect, it } from 'vitest';
import { validateTrajectory, type TrajectoryErrorCode } from '@/lib/agentdata';
import { BROKEN_EXAMPLES, CALCULATOR_TOOL, pretty, TWO_CALL_TRAJECTORY } from '@/lib/agentdata/examples';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const codes = (input: unknown) => validateTrajectory(input).errors.map((e) => e.code);
const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

/** The chapter's shop example: text beside a call, two tools, a JSON observation. */
const SHOP = {
  tools: [
    { type: 'function', function: { name: 'search_catalog', description: 'Look up a product.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } },
    { type: 'function', function: { name: 'calculator', parameters: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] } } },
  ],
  messages: [
    { role: 'system', content: 'You are a shop assistant.' },
    { role: 'user', content: 'What do 3 units of SKU-42 cost after a 10% discount?' },
    { role: 'assistant', content: 'I need the unit price first.', tool_calls: [call('call_1', 'search_catalog', { query: 'SKU-42' })] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"sku": "SKU-42", "unit_price": 24.0}' },
    { role: 'assistant', content: '', tool_calls: [call('call_2', 'calculator', { expr: '3 * 24.0 * 0.9' })] },
    { role: 'tool', tool_call_id: 'call_2', content: '64.8' },
    { role: 'assistant', content: 'Three units cost $64.80 after the discount.' },
  ],
};

describe('validateTrajectory accepts valid OpenAI-format trajectories', () => {
  it('accepts the two-call calculator trajectory as an object, as JSON text and as one JSONL line', () => {
    for (const input of [TWO_CALL_TRAJECTORY, pretty(TWO_CALL_TRAJECTORY), JSON.stringify(TWO_CALL_TRAJECTORY)]) {
      const r = validateTrajectory(input);
      expect(r.errors).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.checked).toBe(1);
    }
  });

  it('normalises: arguments parsed, null content as "", calls kept in order', () => {
    const [{ trajectory }] = validateTrajectory(TWO_CALL_TRAJECTORY).trajectories;
    expect(trajectory.tools.map((t) => t.name)).toEqual(['calculator']);
    expect(trajectory.messages[1]).toEqual({ role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'calculator', arguments: { expression: '23*47' } }] });
    expect(trajectory.messages[2]).toEqual({ role: 'tool', toolCallId: 'call_1', content: '1081' });
  });

  it('accepts text beside a call, a system prompt, parallel calls, text parts and object arguments', () => {
    expect(validateTrajectory(SHOP).errors).toEqual([]);
    const parallel = clone(TWO_CALL_TRAJECTORY);
    parallel.messages = [
      parallel.messages[0],
      { role: 'assistant', content: null, tool_calls: [call('a', 'calculator', { expression: '23*47' }), call('b', 'calculator', { expression: '1+1' })] },
      { role: 'tool', tool_call_id: 'b', content: '2' },
      { role: 'tool', tool_call_id: 'a', content: '1081' },
      { role: 'assistant', content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: '1593.' }] },
    ] as never;
    expect(validateTrajectory(parallel).errors).toEqual([]);
    const hf = clone(TWO_CALL_TRAJECTORY) as { messages: { tool_calls?: { function: { arguments: unknown } }[] }[] };
    hf.messages[1].tool_calls![0].function.arguments = { expression: '23*47' }; // Hugging Face's form
    expect(validateTrajectory(hf).errors).toEqual([]);
  });

  it('accepts a trajectory with no tools that calls none, and JSONL of several with blank lines', () => {
    expect(validateTrajectory({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }).ok).toBe(true);
    const r = validateTrajectory(`${JSON.stringify(TWO_CALL_TRAJECTORY)}\n\n${JSON.stringify(SHOP)}\n`);
    expect(r.errors).toEqual([]);
    expect(r.checked).toBe(2);
    expect(r.trajectories.map((t) => t.line)).toEqual([1, 3]);
  });
});

describe('validateTrajectory gives each malformed case its code', () => {
  it.each(BROKEN_EXAMPLES.map((e) => [e.code, e] as const))('%s: the widget example gets exactly that code', (code, e) => {
    const r = validateTrajectory(e.text);
    expect(r.ok).toBe(false);
    expect(new Set(r.errors.map((x) => x.code))).toEqual(new Set([code]));
  });

  it('invalid_json: names the line of the syntax error in a pretty-printed object', () => {
    const text = pretty(TWO_CALL_TRAJECTORY).replace('"role": "user",', '"role": "user"');
    const [error] = validateTrajectory(text).errors;
    expect(error.code).toBe('invalid_json');
    expect(error.line).toBe(text.split('\n').findIndex((l) => l.includes('"content": "What is')) + 1);
    expect(codes('')).toEqual(['invalid_json']);
    expect(codes('{"messages": ')).toEqual(['invalid_json']);
  });

  it('invalid_shape: non-objects, missing or empty messages, bad roles, tools and calls', () => {
    const cases: unknown[] = [
      42,
      null,
      undefined,
      '[1, 2]',
      {},
      { messages: [] },
      { messages: 'hi' },
      { tools: 'calculator', messages: TWO_CALL_TRAJECTORY.messages },
      { tools: [{ name: 'calculator' }], messages: TWO_CALL_TRAJECTORY.messages },
      { tools: [CALCULATOR_TOOL, CALCULATOR_TOOL], messages: TWO_CALL_TRAJECTORY.messages },
      { tools: [{ type: 'function', function: { name: 'bad name!' } }], messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] },
      { messages: [{ role: 'robot', content: 'x' }, { role: 'assistant', content: 'y' }] },
      { messages: [{ role: 'user', content: 7 }, { role: 'assistant', content: 'y' }] },
      { messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: '1' }, { role: 'assistant', content: 'y' }] },
    ];
    for (const c of cases) expect(codes(c), JSON.stringify(c)).toContain('invalid_shape');
    const dup = clone(TWO_CALL_TRAJECTORY);
    dup.messages[3].tool_calls![0].id = 'call_1';
    expect(codes(dup)).toContain('invalid_shape');
  });

  it('unknown_tool: a call to an undefined tool, or any call when no tools are defined', () => {
    const t = clone(TWO_CALL_TRAJECTORY);
    t.messages[1].tool_calls![0].function.name = 'Calculator';
    expect(codes(t)).toEqual(['unknown_tool']);
    const none = { messages: TWO_CALL_TRAJECTORY.messages };
    const e = validateTrajectory(none).errors;
    expect(e.map((x) => x.code)).toEqual(['unknown_tool', 'unknown_tool']);
    expect(e[0].message).toContain('no tools are defined');
  });

  it('bad_arguments: not JSON, not an object, missing, or against the schema', () => {
    const withArgs = (args: unknown) => {
      const t = clone(TWO_CALL_TRAJECTORY) as { messages: { tool_calls?: { function: { arguments?: unknown } }[] }[] };
      if (args === undefined) delete t.messages[1].tool_calls![0].function.arguments;
      else t.messages[1].tool_calls![0].function.arguments = args;
      return validateTrajectory(t).errors;
    };
    expect(withArgs('{expression: 23*47}')[0].message).toMatch(/not valid JSON/);
    expect(withArgs('[1]')[0].message).toMatch(/must be a JSON object, got an array/);
    expect(withArgs(undefined)[0].message).toMatch(/no arguments/);
    const typed = withArgs('{"expression": 2347}');
    expect(typed).toEqual([{ path: 'messages[1].tool_calls[0].function.arguments.expression', code: 'bad_arguments', message: 'expected string, got an integer' }]);
  });

  it('missing_tool_result: an unanswered call, including one answered only after the next assistant turn', () => {
    const late = clone(TWO_CALL_TRAJECTORY);
    late.messages = [late.messages[0], late.messages[1], late.messages[3], late.messages[2], late.messages[4], late.messages[5]];
    const e = validateTrajectory(late).errors;
    expect(e.map((x) => x.code)).toEqual(['missing_tool_result', 'orphan_tool_result']);
    expect(e[0].path).toBe('messages[1].tool_calls[0]');
    expect(e[1].message).toMatch(/already answered, or its turn is over/);
  });

  it('orphan_tool_result: a second answer to the same call', () => {
    const t = clone(TWO_CALL_TRAJECTORY);
    t.messages.splice(3, 0, { role: 'tool', tool_call_id: 'call_1', content: '1081' });
    expect(codes(t)).toEqual(['orphan_tool_result']);
  });

  it('after_final_answer: turns after the answer, or no answer at all', () => {
    const t = clone(TWO_CALL_TRAJECTORY);
    t.messages.pop();
    expect(validateTrajectory(t).errors).toEqual([
      { path: 'messages', code: 'after_final_answer', message: 'no final answer: a trajectory ends with an assistant message that has content and no tool calls' },
    ]);
    const more = clone(TWO_CALL_TRAJECTORY);
    more.messages.push({ role: 'user', content: 'And 2+2?' }, { role: 'assistant', content: null, tool_calls: [call('call_3', 'calculator', { expression: '2+2' })] }, { role: 'tool', tool_call_id: 'call_3', content: '4' });
    const [e] = validateTrajectory(more).errors;
    expect(e).toMatchObject({ code: 'after_final_answer', path: 'messages[6]' });
    expect(e.message).toMatch(/^3 messages after the final answer at messages\[5\]/);
  });

  it('empty_turn: blank user, system and assistant turns', () => {
    for (const m of [{ role: 'user', content: '  ' }, { role: 'system', content: '' }, { role: 'assistant', content: null }]) {
      expect(codes({ messages: [m, { role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] })).toEqual(['empty_turn']);
    }
  });
});

describe('JSONL', () => {
  it('numbers each error with its line (blank lines counted)', () => {
    const unknown = clone(TWO_CALL_TRAJECTORY);
    unknown.messages[1].tool_calls![0].function.name = 'search';
    const text = [JSON.stringify(TWO_CALL_TRAJECTORY), '', '{"messages": [', JSON.stringify(unknown)].join('\n');
    const r = validateTrajectory(text);
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([
      [3, 'invalid_json'],
      [4, 'unknown_tool'],
    ]);
    expect(r.checked).toBe(3);
    expect(r.trajectories.map((t) => t.line)).toEqual([1]);
  });

  it('reports a JSON array on one line as the wrong shape', () => {
    expect(codes(`${JSON.stringify(TWO_CALL_TRAJECTORY)}\n[1]`)).toEqual(['invalid_shape']);
  });
});

describe('caps: any input gets errors, never a crash or a hang', () => {
  const timed = (input: unknown) => {
    const start = performance.now();
    const r = validateTrajectory(input);
    return { r, ms: performance.now() - start };
  };

  it('refuses 5 MB of text at once, before parsing', () => {
    const { r, ms } = timed(`{"messages": "${'x'.repeat(5 * 1024 * 1024)}"}`);
    expect(ms).toBeLessThan(100);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'too_large', path: '' });
    expect(r.errors[0].message).toMatch(/5,242,\d{3} characters; the limit is 1,000,000 \(about 1 MB\)/);
  });

  it('refuses nesting deeper than 32, in text, in objects (cycles included) and inside an arguments string', () => {
    const { r, ms } = timed('['.repeat(200_000));
    expect(ms).toBeLessThan(500);
    expect(r.errors[0]).toMatchObject({ code: 'too_large', line: 1 });
    expect(r.errors[0].message).toMatch(/more than 32 levels/);
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { deep };
    expect(codes({ messages: deep })).toEqual(['too_large']);
    const cyclic: Record<string, unknown> = { messages: [] };
    (cyclic.messages as unknown[]).push(cyclic);
    expect(codes(cyclic)).toEqual(['too_large']);
    const t = clone(TWO_CALL_TRAJECTORY);
    t.messages[1].tool_calls![0].function.arguments = `{"expression": ${'['.repeat(40)}`;
    expect(codes(t)).toEqual(['too_large']);
  });

  it('checks at most 1,000 JSONL lines and 200 messages per trajectory', () => {
    const line = JSON.stringify({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] });
    const r = validateTrajectory(Array(1_003).fill(line).join('\n'));
    expect(r.checked).toBe(1_000);
    expect(r.errors).toEqual([{ line: 1_001, path: '', code: 'too_large', message: 'Only the first 1,000 lines are checked; 3 more were not.' }]);
    const long = { messages: Array.from({ length: 201 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'x' })) };
    expect(validateTrajectory(long).errors[0]).toMatchObject({ code: 'too_large', path: 'messages', message: expect.stringMatching(/201 messages; at most 200/) });
  });

  it('lists at most 100 errors and summarises the rest by code', () => {
    const r = validateTrajectory([JSON.stringify(TWO_CALL_TRAJECTORY), ...Array(150).fill('{"messages": [')].join('\n'));
    expect(r.errors).toHaveLength(100);
    expect(r.omitted).toBe(50);
    expect(r.summary).toBe('50 more errors not listed (only the first 100 are): invalid_json × 50.');
    expect(r.checked).toBe(151);
    expect(r.errors[99].line).toBe(101);
  });

  it('caps tool calls per message and tools per trajectory', () => {
    const t = clone(TWO_CALL_TRAJECTORY);
    t.messages[1].tool_calls = Array.from({ length: 33 }, (_, i) => call(`c${i}`, 'calculator', { expression: '1+1' }));
    expect(codes(t)).toContain('too_large');
    expect(codes({ tools: Array(129).fill(CALCULATOR_TOOL), messages: TWO_CALL_TRAJECTORY.messages })).toContain('too_large');
  });

  it('reports an object whose property getter throws instead of crashing', () => {
    const hostile = { tools: [], get messages(): unknown {
      throw new Error('boom');
    } };
    const r = validateTrajectory(hostile);
    expect(r.ok).toBe(false);
    expect(r.errors[0].message).toContain('boom');
  });
});

describe('prototype-named keys are data, never tools or pollution', () => {
  const expectOnly = (input: unknown, code: TrajectoryErrorCode) => expect(new Set(codes(input))).toEqual(new Set([code]));

  it('a call to "constructor", "__proto__" or "toString" is an unknown tool unless defined', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const t = clone(TWO_CALL_TRAJECTORY);
      t.messages[1].tool_calls![0].function.name = name;
      expectOnly(t, 'unknown_tool');
    }
  });

  it('a tool really named "constructor" or "__proto__" works like any other', () => {
    for (const name of ['constructor', '__proto__']) {
      const text = JSON.stringify(TWO_CALL_TRAJECTORY).replaceAll('"calculator"', JSON.stringify(name));
      expect(validateTrajectory(text).errors).toEqual([]);
    }
  });

  it('"__proto__" keys in arguments and schemas pollute nothing, and required "constructor" is not met by the prototype', () => {
    const text = JSON.stringify(TWO_CALL_TRAJECTORY)
      .replace('"additionalProperties":false', '"additionalProperties":false,"__proto__":{"polluted":true}')
      .replace('{\\"expression\\":\\"23*47\\"}', '{\\"expression\\":\\"23*47\\",\\"__proto__\\":{\\"polluted\\":true}}');
    const e = validateTrajectory(text).errors;
    expect(e).toEqual([{ path: 'messages[1].tool_calls[0].function.arguments.__proto__', code: 'bad_arguments', message: 'unexpected property "__proto__" (additionalProperties is false)' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const t = clone(TWO_CALL_TRAJECTORY) as unknown as { tools: { function: { parameters: { required: string[] } } }[] };
    t.tools[0].function.parameters.required = ['expression', 'constructor'];
    expect(validateTrajectory(t).errors.map((x) => x.message)).toEqual(['missing required property "constructor"', 'missing required property "constructor"']);
  });
});
