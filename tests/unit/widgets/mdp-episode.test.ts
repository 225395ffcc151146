// Chapter 1's MDP stepper, its pure part: a scripted policy walks episodes of the agent lab's calculator
// environment, and every action, observation, reward and return is checked against values worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  actionPositions,
  applyAction,
  chooseAction,
  discountedReturns,
  fmt,
  fmtProb,
  mdpContext,
  parseSeed,
  problemChoices,
  problemFor,
  startEpisode,
  stateSegments,
  stepRewards,
  turns,
  viewOf,
  createMdpEngine,
  type Episode,
} from '@/app/_components/widgets/mdp-episode';
import { labRules } from '@/app/_components/widgets/mdp-rules';
import { createRng } from '@/lib/random';
import { agentProblem } from '@/lib/tasks/agent';
import { sampleToken } from '@/lib/models/sampling';
import { createAgentLabTask } from '@/lib/train/lab-setup';

const task = createAgentLabTask();
const ctx = mdpContext(task, labRules());
const tok = task.tokenizer;

/** Plays `text` (then EOS unless `eos` is false) as the policy's tokens, each with probability p, until the episode ends. */
function play(a: number, b: number, text: string, p = 0.8, eos = true): Episode {
  let episode = startEpisode(task, agentProblem(a, b));
  const tokens = [...tok.encode(text), ...(eos ? [tok.eos] : [])];
  for (const token of tokens) {
    if (episode.end) break;
    episode = applyAction(episode, token, p, ctx);
  }
  return episode;
}

describe('discountedReturns: G_t = r_t + γ G_{t+1}, G_T = 0', () => {
  it('reproduces chapter 1’s shop episode', () => {
    // (0, −0.1, 0, 1) with γ = 0.9: G_3 = 1, G_2 = 0.9, G_1 = −0.1 + 0.81 = 0.71, G_0 = 0.639.
    const G = discountedReturns([0, -0.1, 0, 1], 0.9);
    [0.639, 0.71, 0.9, 1].forEach((g, t) => expect(G[t]).toBeCloseTo(g, 12));
  });

  it('spreads a terminal reward back as γ^(T−1−t) · R, and leaves it whole with γ = 1', () => {
    // R = 1.1 at t = 3: 1.1 · 0.9 = 0.99, · 0.9 = 0.891, · 0.9 = 0.8019.
    const G = discountedReturns([0, 0, 0, 1.1], 0.9);
    [0.8019, 0.891, 0.99, 1.1].forEach((g, t) => expect(G[t]).toBeCloseTo(g, 12));
    expect(discountedReturns([0, 0, 0, 1.1], 1)).toEqual([1.1, 1.1, 1.1, 1.1]);
    expect(discountedReturns([], 0.9)).toEqual([]);
  });
});

describe('an episode with a calculator call', () => {
  // "[347*6]" (7 policy tokens), "=2082" from the calculator, then " #### 2082" and EOS (11 policy tokens).
  const episode = play(347, 6, '[347*6] #### 2082');

  it('is 18 actions, with the calculator’s 5 tokens after the seventh', () => {
    expect(episode.steps).toHaveLength(18);
    expect(tok.decode(episode.completion)).toBe('[347*6]=2082 #### 2082');
    expect(episode.roles.map((r) => (r === 'policy' ? 'p' : 'o')).join('')).toBe(`${'p'.repeat(7)}ooooo${'p'.repeat(11)}`);
    expect(episode.steps.map((s) => s.observation.length)).toEqual([0, 0, 0, 0, 0, 0, 5, ...Array(11).fill(0)]);
    expect(tok.decode(episode.steps[6].observation)).toBe('=2082');
  });

  it('marks the "]" that closes the call with the whole call and its probability, 0.8^7', () => {
    expect(episode.steps.map((s) => s.call)).toEqual([null, null, null, null, null, null, { text: '[347*6]', prob: expect.closeTo(0.2097152, 12) }, ...Array(11).fill(null)]);
  });

  it('ends at EOS with reward 1 × 1 + 0.1 × 1 = 1.1 on the last step and 0 before it', () => {
    expect(episode.end).toEqual({ reason: 'eos', text: '[347*6]=2082 #### 2082', correctness: 1, format: 1, reward: expect.closeTo(1.1, 12) });
    const r = stepRewards(episode);
    expect(r.slice(0, 17)).toEqual(Array(17).fill(0));
    expect(r[17]).toBeCloseTo(1.1, 12);
    // γ = 0.9: G_0 = 0.9^17 · 1.1 = 0.1834490…; G_16 = 0.99.
    const G = discountedReturns(r, 0.9);
    expect(G[0]).toBeCloseTo(0.18344899869633, 10);
    expect(G[16]).toBeCloseTo(0.99, 12);
  });

  it('shows s_t by who wrote each part, and where each action sits', () => {
    const pos = actionPositions(episode);
    expect(pos.slice(0, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 12]); // the call's 7 tokens, then 7 + 5 observation tokens
    expect(stateSegments(episode, 0, ctx)).toEqual([{ role: 'prompt', text: '347*6=' }]);
    expect(stateSegments(episode, pos[8], ctx)).toEqual([
      { role: 'prompt', text: '347*6=' },
      { role: 'policy', text: '[347*6]' },
      { role: 'observation', text: '=2082' },
      { role: 'policy', text: ' ' },
    ]);
  });

  it('reads at turn level as call, observation, answer, each policy turn with the product of its tokens’ probabilities', () => {
    const view = turns(episode, ctx);
    expect(view.map((x) => [x.role, x.text])).toEqual([
      ['policy', '[347*6]'],
      ['observation', '=2082'],
      ['policy', '␣####␣2082<eos>'],
    ]);
    expect(view[0].prob).toBeCloseTo(0.8 ** 7, 12);
    expect(view[2].prob).toBeCloseTo(0.8 ** 11, 12);
  });

  it('becomes the table’s view: an action row per token, the observation row after the call, rewards and turns', () => {
    const view = viewOf(episode, ctx);
    expect(view.actions).toBe(18);
    expect(view.stateTokens).toBe(7 + 23); // BOS and "347*6=", then 18 policy and 5 observation tokens
    expect(view.rows.map((r) => (r.kind === 'action' ? r.token : `o${r.t}:${r.text}`)).slice(5, 9)).toEqual(['6', ']', 'o7:=2082', '␣']);
    expect(view.rows).toHaveLength(19);
    expect(view.rows.at(-1)).toMatchObject({ kind: 'action', t: 17, token: '<eos>', prob: 0.8 });
    expect(view.rewards).toEqual(stepRewards(episode));
    expect(view.end).toEqual({ reason: 'eos', correctness: 1, format: 1, reward: episode.end!.reward });
    expect(view.now.map((s) => s.role)).toEqual(['prompt', 'policy', 'observation', 'policy']);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view); // plain data: it travels from the server as a prop
  });

  it('refuses a step after the end', () => {
    expect(() => applyAction(episode, tok.eos, 1, ctx)).toThrow('the episode has ended');
  });
});

describe('episodes that end otherwise', () => {
  it('a wrong answer from memory earns only the format reward, 0.1', () => {
    const episode = play(347, 6, '#### 2000');
    expect(episode.steps).toHaveLength(10);
    expect(episode.end).toMatchObject({ reason: 'eos', correctness: 0, format: 1, reward: 0.1 });
    expect(turns(episode, ctx).map((x) => x.role)).toEqual(['policy']);
  });

  it('an episode cut off at 26 tokens is truncated: no format reward even when the number is right', () => {
    const episode = play(7, 6, `#### 42${' '.repeat(40)}`, 0.8, false);
    expect(episode.completion).toHaveLength(26);
    expect(episode.end).toMatchObject({ reason: 'length', correctness: 1, format: 0, reward: 1 });
  });

  it('the environment ends the episode at a third call (the cap is 2), with no observation', () => {
    const episode = play(7, 6, '[1*1][1*1][1*1] #### 42');
    expect(tok.decode(episode.completion)).toBe('[1*1]=1[1*1]=1[1*1]');
    expect(episode.steps).toHaveLength(15);
    expect(episode.steps.at(-1)!.observation).toEqual([]);
    expect(episode.end).toMatchObject({ reason: 'environment', correctness: 0, format: 0, reward: 0 });
  });

  it('a "]" that opened nothing gets "=?" and no call', () => {
    const episode = play(7, 6, '6] #### 42');
    expect(tok.decode(episode.steps[1].observation)).toBe('=?');
    expect(episode.steps[1].call).toBeNull();
    expect(episode.end).toMatchObject({ text: '6]=? #### 42', correctness: 1, format: 1 });
  });
});

describe('the engine the page loads on the reader’s first action', () => {
  it('starts at s_0 with no rows, and its steps draw from the seed as generate() does', () => {
    const engine = createMdpEngine(labRules());
    const { episode, rng } = engine.start('347*6=', 3);
    const view = engine.view(episode);
    expect(view).toMatchObject({ actions: 0, stateTokens: 7, rows: [], rewards: [], end: null, turns: [] });
    expect(view.now).toEqual([{ role: 'prompt', text: '347*6=' }]);
    expect(engine.input(episode)).toEqual([tok.bos, ...tok.encode('347*6=')]);
    const probs = new Float32Array(engine.vocabSize).fill(0);
    probs[tok.encode('[')[0]] = 0.25;
    probs[tok.encode('#')[0]] = 0.75;
    const want = sampleToken(probs, createRng(3), { temperature: 1 }).token;
    const next = engine.step(episode, probs, rng, false);
    expect(next.steps).toEqual([{ t: 0, token: want, prob: probs[want], call: null, observation: [] }]);
    expect(engine.step(episode, probs, createRng(0), true).steps[0].token).toBe(tok.encode('#')[0]);
  });
});

describe('choosing a_t', () => {
  const probs = new Float32Array([0.1, 0.6, 0.3]);

  it('greedy takes the most likely token and draws nothing', () => {
    const rng = createRng(3);
    expect(chooseAction(probs, rng, true)).toEqual({ token: 1, prob: probs[1] });
    expect(rng.next()).toBe(createRng(3).next());
  });

  it('sampling draws as generate() does, with the token’s own probability', () => {
    const [a, b] = [createRng(5), createRng(5)];
    for (let i = 0; i < 20; i++) {
      const got = chooseAction(probs, a, false);
      expect(got.token).toBe(sampleToken(probs, b, { temperature: 1 }).token);
      expect(got.prob).toBe(probs[got.token]);
    }
  });
});

describe('the controls', () => {
  it('offers held-out hard products, a times-table fact and random', () => {
    expect(problemChoices(task).map((c) => c.label)).toEqual([
      '347*6= (hard, held out from training)',
      '576*9= (hard, held out from training)',
      '211*4= (hard, held out from training)',
      '007*6= (a times-table fact)',
      'random held-out problem, drawn with the seed',
    ]);
    expect(problemFor(task, '007*6=', 0)).toEqual(agentProblem(7, 6));
    expect(() => problemFor(task, '999*9=', 0)).toThrow('unknown problem');
  });

  it('draws the random problem from the seed: the same seed, the same problem, held out or easy', () => {
    const drawn = [0, 1, 2, 3, 4, 5].map((s) => problemFor(task, 'random', s));
    expect(problemFor(task, 'random', 4)).toEqual(drawn[4]);
    expect(new Set(drawn.map((p) => p.prompt)).size).toBeGreaterThan(3);
    for (const p of drawn) expect(p.easy || task.isHeldOut(p)).toBe(true);
  });

  it('accepts a seed from 0 to 999999999 and explains anything else', () => {
    expect(parseSeed('0')).toEqual({ ok: true, seed: 0 });
    expect(parseSeed(' 42 ')).toEqual({ ok: true, seed: 42 });
    for (const bad of ['', '-1', '1.5', '1e3', '1234567890', 'abc']) expect(parseSeed(bad)).toMatchObject({ ok: false, error: expect.stringContaining('whole number') });
  });

  it('formats numbers for the table', () => {
    expect([fmt(1.1), fmt(0.8019), fmt(0.18344899), fmt(0)]).toEqual(['1.1', '0.8019', '0.1834', '0']);
    expect([fmtProb(0.93123), fmtProb(0.00042), fmtProb(0)]).toEqual(['0.931', '4.2e-4', '0.000']);
  });
});
