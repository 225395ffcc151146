// Example trajectories: the chapter's worked example, the widget's default, and one broken variant per error
// code (the widget offers them; the tests check each gets its code). Plain data, no imports.

export const CALCULATOR_TOOL = {
  type: 'function',
  function: {
    name: 'calculator',
    description: 'Evaluate integers joined by + - *.',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', description: 'e.g. 23*47' } },
      required: ['expression'],
      additionalProperties: false,
    },
  },
} as const;

const call = (id: string, expression: string) => ({
  id,
  type: 'function',
  function: { name: 'calculator', arguments: JSON.stringify({ expression }) },
});

/** Two calculator calls, the second using the first one's result, then the answer. */
export const TWO_CALL_TRAJECTORY = {
  tools: [CALCULATOR_TOOL],
  messages: [
    { role: 'user', content: 'What is 23*47+512?' },
    { role: 'assistant', content: null, tool_calls: [call('call_1', '23*47')] },
    { role: 'tool', tool_call_id: 'call_1', content: '1081' },
    { role: 'assistant', content: null, tool_calls: [call('call_2', '1081+512')] },
    { role: 'tool', tool_call_id: 'call_2', content: '1593' },
    { role: 'assistant', content: 'The answer is 1593.' },
  ],
};

export const pretty = (value: unknown) => JSON.stringify(value, null, 2);

type Example = { label: string; code: string; text: string };

const withMessages = (edit: (messages: unknown[]) => unknown[]) => pretty({ ...TWO_CALL_TRAJECTORY, messages: edit([...TWO_CALL_TRAJECTORY.messages]) });
const replaceAt = (i: number, m: unknown) => (ms: unknown[]) => ms.map((x, k) => (k === i ? m : x));
const insertAt = (i: number, m: unknown) => (ms: unknown[]) => [...ms.slice(0, i), m, ...ms.slice(i)];

/** One example per error code, each breaking the two-call trajectory in one place. */
export const BROKEN_EXAMPLES: Example[] = [
  { label: 'Not JSON (a missing comma)', code: 'invalid_json', text: pretty(TWO_CALL_TRAJECTORY).replace('"role": "user",', '"role": "user"') },
  { label: 'A message without a role', code: 'invalid_shape', text: withMessages(replaceAt(0, { content: 'What is 23*47+512?' })) },
  {
    label: 'A call to a tool that is not defined',
    code: 'unknown_tool',
    text: withMessages(replaceAt(1, { role: 'assistant', content: null, tool_calls: [{ ...call('call_1', '23*47'), function: { name: 'multiply', arguments: '{"a": 23, "b": 47}' } }] })),
  },
  {
    label: 'Arguments that break the schema',
    code: 'bad_arguments',
    text: withMessages(replaceAt(1, { role: 'assistant', content: null, tool_calls: [{ ...call('call_1', ''), function: { name: 'calculator', arguments: '{"expr": "23*47"}' } }] })),
  },
  { label: 'A call nobody answers', code: 'missing_tool_result', text: withMessages((ms) => ms.filter((_, k) => k !== 2)) },
  { label: 'A result for a call that was never made', code: 'orphan_tool_result', text: withMessages(insertAt(5, { role: 'tool', tool_call_id: 'call_9', content: '1593' })) },
  { label: 'A user turn after the answer', code: 'after_final_answer', text: withMessages((ms) => [...ms, { role: 'user', content: 'Thanks!' }]) },
  { label: 'An empty assistant turn', code: 'empty_turn', text: withMessages(insertAt(5, { role: 'assistant', content: '' })) },
];
