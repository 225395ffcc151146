/**
 * One episode of the agent lab's environment, walked token by token as an MDP (chapter 1's stepper). Pure and
 * tfjs-free: the next-token probabilities come from outside (the policy's Web Worker in the page, the model
 * itself in tests), and everything else is here. Each step mirrors one iteration of generate()'s loop for one row
 * (lib/models/generate.ts), so the same seed gives the same episode as the lab's sampler.
 *
 *   s_t  the prompt and every token so far, the calculator's included      policyInput(episode)
 *   a_t  the next token the policy chose, with π_θ(a_t | s_t)               applyAction()
 *   o_t  the calculator's answer after a closing "]" ("=2082")             step.observation
 *   r_t  0 until the last step, then correctness × 1 + format × 0.1        stepRewards()
 *   G_t  r_t + γ G_{t+1}, computed backwards once the episode has ended    discountedReturns()
 */
import { sampleToken } from '@/lib/models/sampling';
import { createRng, type Rng } from '@/lib/random';
import { AGENT_REWARDS, agentEnvironment, agentProblem, type AgentProblem, type AgentTask } from '@/lib/tasks/agent';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import { createAgentLabTask } from '@/lib/train/lab-setup';
import type { EndReason, EndView, EpisodeView, MdpRules, ProblemChoice, Segment, Turn, ViewRow } from './mdp-view';

export { discountedReturns, fmt, fmtProb, parseSeed, type EndReason, type MdpRules, type ProblemChoice, type Segment, type Turn } from './mdp-view';

export interface MdpStep {
  t: number;
  /** The token the policy chose, a_t. */
  token: number;
  /** π_θ(a_t | s_t), from the probabilities the policy gave (temperature 1). */
  prob: number;
  /** When a_t is the "]" that closes a call: the whole call, e.g. "[347*6]", and its probability (the product of its tokens'). */
  call: { text: string; prob: number } | null;
  /** The environment's tokens appended after a_t (the observation o_{t+1}); empty when it said nothing. */
  observation: number[];
}

/** EndView's reward is correctness × weight + format × weight: the reward r_{T−1} of the last step. */
export interface EpisodeEnd extends EndView {
  /** The completion as the reward functions read it ("[347*6]=2082 #### 2082"). */
  text: string;
}

export interface Episode {
  problem: AgentProblem;
  /** BOS and the prompt's tokens: s_0. */
  prompt: number[];
  /** Every token after the prompt, the policy's and the environment's. */
  completion: number[];
  /** Who wrote each completion token. */
  roles: ('policy' | 'observation')[];
  steps: MdpStep[];
  end: EpisodeEnd | null;
}

/** What stepping needs besides the episode: the task, the calculator, the length limit and the reward weights. */
export interface MdpContext {
  task: AgentTask;
  env: ToolEnvironment;
  rules: MdpRules;
}

export function mdpContext(task: AgentTask, rules: MdpRules): MdpContext {
  return { task, env: agentEnvironment(task, rules.maxCalls), rules };
}

export function startEpisode(task: AgentTask, problem: AgentProblem): Episode {
  return { problem, prompt: task.encodePrompt(problem), completion: [], roles: [], steps: [], end: null };
}

/** s_t as the policy reads it: prompt, then every token so far. */
export const policyInput = (episode: Episode): number[] => [...episode.prompt, ...episode.completion];

/** Picks a_t from π_θ(· | s_t): the most likely token (ties → lowest id), or a draw from `rng` at temperature 1. */
export function chooseAction(probs: Float32Array, rng: Rng, greedy: boolean): { token: number; prob: number } {
  const { token } = sampleToken(probs, rng, { temperature: greedy ? 0 : 1 });
  return { token, prob: probs[token] };
}

/**
 * Appends a_t and whatever the environment answers, as generate() does for one row: EOS ends the episode; else,
 * with room left, the calculator may append an observation (cut at the length limit) or end the episode (a call
 * beyond the cap); at the length limit the episode is cut off. Returns a new episode.
 */
export function applyAction(episode: Episode, token: number, prob: number, ctx: MdpContext): Episode {
  if (episode.end) throw new Error('the episode has ended: reset it to start another');
  const tok = ctx.task.tokenizer;
  const completion = [...episode.completion, token];
  const roles: Episode['roles'] = [...episode.roles, 'policy'];
  const step: MdpStep = { t: episode.steps.length, token, prob, call: null, observation: [] };
  let reason: EndReason | null = token === tok.eos ? 'eos' : null;
  if (reason === null && completion.length < ctx.rules.maxCompletion) {
    const reply = ctx.env.respond(completion);
    step.observation = (reply?.tokens ?? []).slice(0, ctx.rules.maxCompletion - completion.length);
    for (const o of step.observation) {
      completion.push(o);
      roles.push('observation');
    }
    if (reply?.done) reason = 'environment';
  }
  if (reason === null && completion.length >= ctx.rules.maxCompletion) reason = 'length';
  const steps = [...episode.steps, step];
  step.call = closedCall(episode, steps, tok.decode([token]), ctx);
  const next: Episode = { ...episode, completion, roles, steps, end: null };
  return reason === null ? next : { ...next, end: scoreEpisode(next, reason, ctx) };
}

/** When a_t is "]", the call it closes: the policy's tokens since the last "[" and the product of their probabilities. */
function closedCall(episode: Episode, steps: MdpStep[], text: string, ctx: MdpContext): MdpStep['call'] {
  if (text !== ']') return null;
  const tok = ctx.task.tokenizer;
  const [open, close] = tok.encode('[]');
  let first = steps.length - 2;
  while (first >= 0 && steps[first].token !== open && steps[first].token !== close) first--;
  if (first < 0 || steps[first].token !== open) return null; // a "]" that opened nothing: the calculator answers "=?"
  // The call's tokens are all the policy's: the calculator speaks only after a "]".
  const own = steps.slice(first);
  return { text: tok.decode(own.map((s) => s.token)), prob: own.reduce((p, s) => p * s.prob, 1) };
}

/** The reward at the end, with the lab's reward functions and the trainer's notion of "truncated" (no EOS). */
export function scoreEpisode(episode: Episode, reason: EndReason, ctx: MdpContext): EpisodeEnd {
  const text = ctx.task.tokenizer.decode(episode.completion);
  const context = { answers: [episode.problem.answer], truncated: [reason !== 'eos'] };
  const correctness = AGENT_REWARDS.correctness([text], context)[0];
  const format = AGENT_REWARDS.format([text], context)[0];
  return { reason, text, correctness, format, reward: ctx.rules.weights.correctness * correctness + ctx.rules.weights.format * format };
}

/** r_t for every step taken: 0, except the last step of an ended episode, which gets the episode's reward. */
export function stepRewards(episode: Episode): number[] {
  return episode.steps.map((_, t) => (episode.end && t === episode.steps.length - 1 ? episode.end.reward : 0));
}

/**
 * The same episode at turn level: the policy's runs of tokens, each one action, and the environment's answers
 * between them. "[347*6]", "=2082", " #### 2082<eos>".
 */
export function turns(episode: Episode, ctx: MdpContext): Turn[] {
  const out: Turn[] = [];
  let text = '';
  let prob = 1;
  for (const step of episode.steps) {
    text += tokenText(ctx, step.token);
    prob *= step.prob;
    if (step.observation.length > 0) {
      out.push({ role: 'policy', text, prob }, { role: 'observation', text: ctx.task.tokenizer.decode(step.observation) });
      [text, prob] = ['', 1];
    }
  }
  if (text !== '') out.push({ role: 'policy', text, prob });
  return out;
}

/** A token as the stepper shows it: "<eos>", "<bos>", and the space as "␣" so that it is visible. */
export function tokenText(ctx: MdpContext, id: number): string {
  const text = ctx.task.tokenizer.decode([id], { raw: true });
  return text === ' ' ? '␣' : text;
}

/**
 * s_t as runs of text by who wrote them: the prompt x (without BOS), then the completion's first `upto` tokens,
 * grouped into the policy's runs and the environment's. "347*6=" · "[347*6]" · "=2082" · " ####".
 */
export function stateSegments(episode: Episode, upto: number, ctx: MdpContext): Segment[] {
  const out: Segment[] = [{ role: 'prompt', text: ctx.task.tokenizer.decode(episode.prompt) }];
  for (let i = 0; i < Math.min(upto, episode.completion.length); i++) {
    const role = episode.roles[i];
    const text = ctx.task.tokenizer.decode([episode.completion[i]], { raw: true });
    const last = out[out.length - 1];
    if (last.role === role) last.text += text;
    else out.push({ role, text });
  }
  return out;
}

/** Where step t's action sits in the completion: the number of tokens in s_t after the prompt. */
export function actionPositions(episode: Episode): number[] {
  const out: number[] = [];
  let at = 0;
  for (const step of episode.steps) {
    out.push(at);
    at += 1 + step.observation.length;
  }
  return out;
}

/** The picker's problems: hard products held out from training, and a times-table fact. */
const PICKS: [number, number][] = [
  [347, 6],
  [576, 9],
  [211, 4],
  [7, 6],
];

export const RANDOM_PROBLEM = 'random';

export function problemChoices(task: AgentTask): ProblemChoice[] {
  return [
    ...PICKS.map(([a, b]) => {
      const p = agentProblem(a, b);
      const kind = p.easy ? 'a times-table fact' : task.isHeldOut(p) ? 'hard, held out from training' : 'hard, seen in training';
      return { value: p.prompt, label: `${p.prompt} (${kind})` };
    }),
    { value: RANDOM_PROBLEM, label: 'random held-out problem, drawn with the seed' },
  ];
}

/** The problem a choice names; "random" draws one from the test split with the seed, so a seed names it. */
export function problemFor(task: AgentTask, value: string, seed: number): AgentProblem {
  if (value === RANDOM_PROBLEM) return task.sample('test', 1, createRng(`mdp-problem/${seed}`))[0];
  const pick = PICKS.map(([a, b]) => agentProblem(a, b)).find((p) => p.prompt === value);
  if (!pick) throw new Error(`unknown problem ${JSON.stringify(value)}`);
  return pick;
}

/** The episode as the table shows it. */
export function viewOf(episode: Episode, ctx: MdpContext): EpisodeView {
  const positions = actionPositions(episode);
  const rows: ViewRow[] = episode.steps.flatMap((step, t): ViewRow[] => {
    const action: ViewRow = { kind: 'action', t, state: stateSegments(episode, positions[t], ctx), token: tokenText(ctx, step.token), prob: step.prob, call: step.call };
    return step.observation.length > 0 ? [action, { kind: 'observation', t: t + 1, text: ctx.task.tokenizer.decode(step.observation) }] : [action];
  });
  const end = episode.end && { reason: episode.end.reason, correctness: episode.end.correctness, format: episode.end.format, reward: episode.end.reward };
  return {
    actions: episode.steps.length,
    stateTokens: episode.prompt.length + episode.completion.length,
    now: stateSegments(episode, episode.completion.length, ctx),
    rows,
    rewards: stepRewards(episode),
    end,
    turns: turns(episode, ctx),
  };
}

/** What the page needs once the reader acts: episodes for its settings, steps, and their views. */
export function createMdpEngine(rules: MdpRules, task: AgentTask = createAgentLabTask()) {
  const ctx = mdpContext(task, rules);
  return {
    vocabSize: task.tokenizer.vocabSize,
    /** A fresh episode at t = 0 and the generator its samples draw from. */
    start: (problem: string, seed: number) => ({ episode: startEpisode(task, problemFor(task, problem, seed)), rng: createRng(seed) }),
    input: policyInput,
    step(episode: Episode, probs: Float32Array, rng: Rng, greedy: boolean): Episode {
      const action = chooseAction(probs, rng, greedy);
      return applyAction(episode, action.token, action.prob, ctx);
    },
    view: (episode: Episode) => viewOf(episode, ctx),
  };
}

export type MdpEngine = ReturnType<typeof createMdpEngine>;
