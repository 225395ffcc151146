// The checks on one trajectory object: its shape, its tools, each call against its tool's schema, that every
// call is answered and every answer has a call, and that it ends with the assistant's answer.
import { describe, isObject, own, parseJson, tooDeepAt, type JsonObject } from './json';
import { fmt, MAX_DEPTH, MAX_MESSAGES, MAX_TOOL_CALLS, MAX_TOOLS } from './limits';
import { checkSchema } from './schema';
import type { ErrorSink } from './sink';
import type { Message, ToolCall, ToolDefinition, Trajectory, TrajectoryErrorCode } from './types';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks one trajectory; returns it normalised when it has no error, else null. */
export function checkTrajectory(value: unknown, sink: ErrorSink, line?: number): Trajectory | null {
  const before = sink.total;
  const add = (code: TrajectoryErrorCode, path: string, message: string) => sink.add(code, path, message, line);
  if (!isObject(value)) {
    add('invalid_shape', '', `a trajectory is an object with "tools" and "messages", got ${describe(value)}`);
    return null;
  }
  const tools = checkTools(value, add);
  const rawMessages = own(value, 'messages');
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    add('invalid_shape', 'messages', Array.isArray(rawMessages) ? '"messages" is empty' : '"messages" must be a list of messages');
    return null;
  }
  if (rawMessages.length > MAX_MESSAGES) {
    add('too_large', 'messages', `${fmt(rawMessages.length)} messages; at most ${MAX_MESSAGES} per trajectory are checked, so this one was not`);
    return null;
  }
  const messages = checkMessages(rawMessages, tools, add);
  return sink.total === before && tools ? { tools: [...tools.values()], messages } : null;
}

type Add = (code: TrajectoryErrorCode, path: string, message: string) => void;

/** The tool list as a Map by name: a name such as `constructor` is then a key like any other, never a prototype's. */
function checkTools(value: JsonObject, add: Add): Map<string, ToolDefinition> | null {
  const tools = new Map<string, ToolDefinition>();
  const raw = own(value, 'tools');
  if (raw === undefined) return tools;
  if (!Array.isArray(raw)) {
    add('invalid_shape', 'tools', `"tools" must be a list, got ${describe(raw)}`);
    return null;
  }
  if (raw.length > MAX_TOOLS) {
    add('too_large', 'tools', `${fmt(raw.length)} tools; at most ${MAX_TOOLS} are checked, so none were`);
    return null;
  }
  let ok = true;
  raw.forEach((t, i) => {
    const path = `tools[${i}]`;
    const fn = isObject(t) ? own(t, 'function') : undefined;
    if (!isObject(t) || own(t, 'type') !== 'function' || !isObject(fn)) {
      ok = false;
      return add('invalid_shape', path, 'a tool is { "type": "function", "function": { "name": …, "parameters": … } }');
    }
    const name = own(fn, 'name');
    const parameters = own(fn, 'parameters') ?? {};
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      ok = false;
      return add('invalid_shape', `${path}.function.name`, 'a tool name is 1 to 64 letters, digits, "_" or "-"');
    }
    if (tools.has(name)) {
      ok = false;
      return add('invalid_shape', `${path}.function.name`, `tool ${JSON.stringify(name)} is defined twice`);
    }
    if (!isObject(parameters) || (own(parameters, 'type') !== undefined && own(parameters, 'type') !== 'object')) {
      ok = false;
      return add('invalid_shape', `${path}.function.parameters`, 'parameters must be a JSON Schema of type "object"');
    }
    tools.set(name, { name, parameters });
  });
  return ok ? tools : null;
}

/** Message content as text: a string, null/absent (''), or a list of { type: 'text', text } parts. */
function text(content: unknown, path: string, add: Add): string | null {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((p) => isObject(p) && own(p, 'type') === 'text' && typeof own(p, 'text') === 'string')) {
    return content.map((p) => own(p as JsonObject, 'text') as string).join('');
  }
  add('invalid_shape', path, 'content must be a string or a list of { "type": "text", "text": … } parts');
  return null;
}

function checkMessages(raw: unknown[], tools: Map<string, ToolDefinition> | null, add: Add): Message[] {
  const messages: Message[] = [];
  const seenIds = new Set<string>();
  let pending = new Map<string, string>(); // call id → its path, for the last assistant turn's calls
  let lastAnswer = -1;
  const closePending = () => {
    for (const [id, path] of pending) add('missing_tool_result', path, `tool call ${JSON.stringify(id)} has no "tool" message answering it`);
    pending = new Map();
  };

  raw.forEach((m, i) => {
    const path = `messages[${i}]`;
    const role = isObject(m) ? own(m, 'role') : undefined;
    if (!isObject(m) || typeof role !== 'string' || !ROLES.has(role)) {
      return add('invalid_shape', path, 'a message is an object whose "role" is system, developer, user, assistant or tool');
    }
    if (role !== 'tool') closePending();
    const content = text(own(m, 'content'), `${path}.content`, add);
    if (content === null) return;

    if (role === 'tool') {
      const id = own(m, 'tool_call_id');
      if (typeof id !== 'string' || id === '') return add('invalid_shape', `${path}.tool_call_id`, 'a tool message needs the "tool_call_id" of the call it answers');
      if (pending.has(id)) pending.delete(id);
      else if (seenIds.has(id)) return add('orphan_tool_result', path, `tool_call_id ${JSON.stringify(id)} was already answered, or its turn is over`);
      else return add('orphan_tool_result', path, `tool_call_id ${JSON.stringify(id)} matches no earlier tool call`);
      messages.push({ role, toolCallId: id, content });
      return;
    }
    if (role !== 'assistant') {
      if (content.trim() === '') return add('empty_turn', `${path}.content`, `the ${role} message is empty`);
      messages.push({ role: role as 'system' | 'developer' | 'user', content });
      return;
    }
    const rawCalls = own(m, 'tool_calls');
    const register = (id: string, at: string) => pending.set(id, at);
    const calls = checkCalls(rawCalls, `${path}.tool_calls`, tools, seenIds, register, add);
    if (calls === null) return;
    if (!Array.isArray(rawCalls) || rawCalls.length === 0) {
      if (content.trim() === '') return add('empty_turn', path, 'the assistant message has neither content nor tool calls');
      lastAnswer = i;
    }
    // AgentInstruct's per-turn flag (chapter 9): kept, so that a mask can honour it; a mask built from roles alone
    // (TRL's assistant_only_loss) would train on the scripted turns it marks.
    const loss = own(m, 'loss');
    if (loss !== undefined && typeof loss !== 'boolean') return add('invalid_shape', `${path}.loss`, `"loss" marks whether the turn is trained on: true or false, got ${describe(loss)}`);
    messages.push(loss === false ? { role: 'assistant', content, toolCalls: calls, loss } : { role: 'assistant', content, toolCalls: calls });
  });
  closePending();

  if (lastAnswer === -1) {
    add('after_final_answer', 'messages', 'no final answer: a trajectory ends with an assistant message that has content and no tool calls');
  } else if (lastAnswer < raw.length - 1) {
    const n = raw.length - 1 - lastAnswer;
    add('after_final_answer', `messages[${lastAnswer + 1}]`, `${n} message${n === 1 ? '' : 's'} after the final answer at messages[${lastAnswer}]; a trajectory ends with the assistant's answer`);
  }
  return messages;
}

/** The calls that passed; every call with a usable id is registered, so its answer is not also reported as an orphan. */
function checkCalls(
  raw: unknown,
  path: string,
  tools: Map<string, ToolDefinition> | null,
  seenIds: Set<string>,
  register: (id: string, path: string) => void,
  add: Add,
): ToolCall[] | null {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    add('invalid_shape', path, `"tool_calls" must be a list, got ${describe(raw)}`);
    return null;
  }
  if (raw.length > MAX_TOOL_CALLS) {
    add('too_large', path, `${fmt(raw.length)} tool calls in one message; at most ${MAX_TOOL_CALLS} are checked, so none were`);
    return null;
  }
  const calls: ToolCall[] = [];
  raw.forEach((c, j) => {
    const at = `${path}[${j}]`;
    const shape = 'a tool call is { "id": …, "type": "function", "function": { "name": …, "arguments": "{…}" } }';
    if (!isObject(c)) return add('invalid_shape', at, shape);
    const fn = own(c, 'function');
    const id = own(c, 'id');
    if (typeof id !== 'string' || id === '') return add('invalid_shape', `${at}.id`, 'a tool call needs an "id" for its result to point to');
    if (seenIds.has(id)) return add('invalid_shape', `${at}.id`, `tool call id ${JSON.stringify(id)} is used twice`);
    seenIds.add(id);
    register(id, at);
    if (!isObject(fn) || (own(c, 'type') ?? 'function') !== 'function' || typeof own(fn, 'name') !== 'string') return add('invalid_shape', at, shape);
    const name = own(fn, 'name') as string;
    const args = parseArguments(own(fn, 'arguments'), `${at}.function.arguments`, add);
    const tool = tools?.get(name);
    if (tools && !tool) {
      const known = [...tools.keys()];
      const list = known.length === 0 ? 'no tools are defined' : `the tools are ${known.slice(0, 6).join(', ')}${known.length > 6 ? ', …' : ''}`;
      add('unknown_tool', `${at}.function.name`, `calls ${JSON.stringify(name.slice(0, 64))}, which is not a defined tool; ${list}`);
    }
    if (args === null) return;
    if (tool) checkSchema(args, tool.parameters, `${at}.function.arguments`, (p, message) => add('bad_arguments', p, message));
    calls.push({ id, name, arguments: args });
  });
  return calls;
}

/** The arguments as an object: a JSON string (OpenAI's form) or an object already (Hugging Face's form). */
function parseArguments(raw: unknown, path: string, add: Add): Record<string, unknown> | null {
  let value = raw;
  if (typeof raw === 'string') {
    if (tooDeepAt(raw) >= 0) {
      add('too_large', path, `the arguments nest more than ${MAX_DEPTH} levels deep`);
      return null;
    }
    const parsed = parseJson(raw);
    if (!parsed.ok) {
      add('bad_arguments', path, `the arguments are not valid JSON: ${parsed.message}`);
      return null;
    }
    value = parsed.value;
  } else if (raw === undefined) {
    add('bad_arguments', path, 'the call has no arguments (write "{}" for none)');
    return null;
  }
  if (!isObject(value)) {
    add('bad_arguments', path, `the arguments must be a JSON object, got ${describe(value)}`);
    return null;
  }
  return value;
}
