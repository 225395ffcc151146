// A valid calculator trajectory in chat format → the agent lab's character tokens and loss mask:
//   prompt       <bos>23*47+512=          mask 0 (context)
//   tool call    [23*47]                  mask 1 (the policy wrote it)
//   tool result  =1081                    mask 0 (the environment wrote it)
//   answer       ' #### 1593' <eos>       mask 1
// The same rule as TRL's assistant-only loss: the model is trained on its own tokens only.
import { CALCULATOR_MAX_RESULT_DIGITS, evaluate } from '@/lib/tasks/environment';
import { AGENT_CHARS, createCharTokenizer } from '@/lib/tasks/tokenizer';
import { errorMessage } from '@/lib/errors';
import type { Message, ToolCall, Trajectory } from './types';
import { validateTrajectory } from './validate';

export type TokenRole = 'prompt' | 'policy' | 'observation';

export type LabEpisode =
  | { ok: true; tokens: string[]; mask: (0 | 1)[]; roles: TokenRole[]; prompt: string; completion: string }
  | { ok: false; reason: string };

const USER_EXPRESSION = /\d+(?:\s*[+*-]\s*\d+)+/g;
const CALL_EXPRESSION = /^-?\d+([+*-]-?\d+)*$/;

/** A trajectory in chat format (object or JSON text): validated first, then converted. */
export function toLabEpisode(trajectory: unknown): LabEpisode {
  const result = validateTrajectory(trajectory);
  if (!result.ok) return { ok: false, reason: `the trajectory is not valid (${result.errors[0]?.code}: ${result.errors[0]?.message})` };
  if (result.trajectories.length !== 1) return { ok: false, reason: `expected one trajectory, got ${result.trajectories.length}` };
  return trajectoryToLab(result.trajectories[0].trajectory);
}

/** A trajectory that validateTrajectory accepted (its normalised form) → the lab's tokens, or the reason it has none. */
export function trajectoryToLab(t: Trajectory): LabEpisode {
  try {
    return convert(t);
  } catch (e) {
    return { ok: false, reason: errorMessage(e) };
  }
}

const fail = (reason: string): never => {
  throw new Error(reason);
};

function convert(t: Trajectory): LabEpisode {
  const tokenizer = createCharTokenizer(AGENT_CHARS);
  const tokens: string[] = [];
  const mask: (0 | 1)[] = [];
  const roles: TokenRole[] = [];
  const push = (text: string, role: TokenRole) => {
    tokenizer.encode(text); // throws, naming the character, if it is outside the lab's vocabulary
    for (const ch of text) {
      tokens.push(ch);
      mask.push(role === 'policy' ? 1 : 0);
      roles.push(role);
    }
  };

  const [first, ...rest] = t.messages;
  if (first.role !== 'user') fail(`the lab's prompt is the user's expression alone, so the trajectory must start with the user message, not a ${first.role} message`);
  tokens.push('<bos>');
  mask.push(0);
  roles.push('prompt');
  push(`${userExpression(first.content)}=`, 'prompt');

  const results = new Map(rest.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content] as const] : [])));
  for (const [i, m] of rest.entries()) {
    const at = `messages[${i + 1}]`;
    if (m.role === 'tool') continue; // emitted right after its call, where the lab's environment answers
    if (m.role !== 'assistant') fail(`${at}: the lab has one user turn; a ${m.role} message cannot be converted`);
    const turn = m as Extract<Message, { role: 'assistant' }>;
    if (turn.loss === false) {
      fail(`${at}: this assistant turn is marked "loss": false (scripted, not the model's work); the lab trains on every assistant token of its one episode, so move such a turn into the prompt or drop it`);
    }
    if (turn.toolCalls.length > 0) {
      if (turn.content.trim() !== '') fail(`${at}: free text beside tool calls ("${turn.content.trim().slice(0, 30)}") has no tokens in the lab; keep only the calls`);
      for (const call of turn.toolCalls) {
        const expr = callExpression(call, at);
        push(`[${expr}]`, 'policy');
        push(`=${toolResult(expr, results.get(call.id) ?? '', at)}`, 'observation');
      }
    } else {
      if (i + 1 !== t.messages.length - 1) fail(`${at}: the lab episode ends at the first answer`);
      push(` #### ${finalNumber(turn.content, at)}`, 'policy');
      tokens.push('<eos>');
      mask.push(1);
      roles.push('policy');
    }
  }
  const text = (role: TokenRole) => tokens.filter((_, k) => (role === 'prompt') === (roles[k] === 'prompt')).join('');
  return { ok: true, tokens, mask, roles, prompt: text('prompt'), completion: text('policy') };
}

function userExpression(content: string): string {
  const found: string[] = content.match(USER_EXPRESSION) ?? [];
  if (found.length !== 1) {
    fail(found.length === 0
      ? `the user message holds no arithmetic expression (digits joined by + - *), e.g. "What is 347*6?"`
      : `the user message holds ${found.length} expressions (${found.slice(0, 3).join(', ')}); the lab's prompt is exactly one`);
  }
  return found[0].replace(/\s+/g, '');
}

function callExpression(call: ToolCall, at: string): string {
  if (call.name !== 'calculator') fail(`${at}: the lab's only tool is "calculator"; "${call.name}" has no tokens there`);
  const keys = Object.keys(call.arguments);
  const expression = call.arguments.expression;
  if (keys.length !== 1 || typeof expression !== 'string') fail(`${at}: a calculator call's arguments are exactly {"expression": "…"}, got keys ${keys.join(', ') || '(none)'}`);
  const expr = (expression as string).replace(/\s+/g, '');
  if (!CALL_EXPRESSION.test(expr)) fail(`${at}: the calculator takes integers joined by + - * (the lab vocabulary is "${AGENT_CHARS}"); "${expr.slice(0, 30)}" is not such an expression`);
  return expr;
}

function toolResult(expr: string, content: string, at: string): string {
  const value = evaluate(expr)!;
  const text = content.trim();
  if (!/^-?\d+$/.test(text)) fail(`${at}: the calculator's result must be an integer, got "${text.slice(0, 30)}"`);
  if (String(Math.abs(value)).length > CALCULATOR_MAX_RESULT_DIGITS) fail(`${at}: ${expr} = ${value} is longer than the lab calculator's ${CALCULATOR_MAX_RESULT_DIGITS} digits`);
  // Replaying the call is the executability filter: the lab's environment would write this observation.
  if (text !== String(value)) fail(`${at}: the result says ${text}, but the lab's calculator answers ${expr} = ${value}`);
  return text;
}

function finalNumber(content: string, at: string): string {
  const trimmed = content.trim();
  const match = /^####\s*(-?\d+)$/.exec(trimmed) ?? /(?:^|[^\d-])(-?\d+)\s*[.!]?$/.exec(trimmed);
  if (!match) fail(`${at}: the final answer must be a number, text ending with a number, or "#### n"; got "${trimmed.slice(0, 40)}"`);
  return match![1];
}
