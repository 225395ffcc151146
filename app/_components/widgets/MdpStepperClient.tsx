'use client';

import { useEffect, useId, useRef, useState } from 'react';
import type { Rng } from '@/lib/random';
import { MdpTable } from './MdpTable';
import type { Episode, MdpEngine } from './mdp-episode';
import { fmt, parseSeed, type EpisodeView, type MdpRules, type ProblemChoice } from './mdp-view';
import type { PolicyClient } from './policy-client';
import { fieldsBeforeHydration } from './hydration';

interface Props {
  problems: ProblemChoice[];
  rules: MdpRules;
  /** s_0 of the first problem, computed at build time. */
  initialView: EpisodeView;
}

interface Settings {
  problem: string;
  seed: string;
  greedy: boolean;
  gamma: 1 | 0.9;
}

type Status = { kind: 'idle' | 'loading' | 'busy' } | { kind: 'error'; message: string };

// The episode logic (task, calculator, sampler, rewards) and the policy worker's client: chunks of their own,
// fetched on the reader's first action.
const loadEngine = (rules: MdpRules) => import('./mdp-episode').then((m) => m.createMdpEngine(rules));
const startPolicy = () => import('./policy-client').then((m) => m.createPolicyClient(m.spawnPolicyWorker));

/** Settings the reader changed before this chunk arrived (hydration.ts). */
function enteredEarly(root: HTMLElement, initial: Settings): Settings {
  const dom = fieldsBeforeHydration(root);
  const text = (name: string) => {
    const value = dom.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    problem: text('problem') ?? initial.problem,
    seed: text('seed') ?? initial.seed,
    greedy: (text('decoding') ?? (initial.greedy ? 'greedy' : 'sample')) === 'greedy',
    gamma: text('gamma') === '0.9' ? 0.9 : text('gamma') === '1' ? 1 : initial.gamma,
  };
}

const sameRun = (a: Settings, b: Settings) => a.problem === b.problem && a.seed === b.seed && a.greedy === b.greedy;

/**
 * Walks one episode of the agent lab's calculator environment with the shipped agent SFT checkpoint as the policy.
 * The policy runs in a Web Worker (tfjs loads there, on the first Step); the environment, the sampling and the
 * rewards run here, with the tfjs-free modules, loaded on the reader's first action.
 */
export function MdpStepperClient({ problems, rules, initialView }: Props) {
  const id = useId();
  const root = useRef<HTMLElement>(null);
  const initial: Settings = { problem: problems[0].value, seed: '0', greedy: false, gamma: 1 };
  const [settings, setSettings] = useState(initial);
  const [view, setView] = useState(initialView);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [backend, setBackend] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const engine = useRef<MdpEngine | null>(null);
  // The episode and its generator for the current settings; null until the engine has loaded (the view is s_0).
  const run = useRef<{ episode: Episode; rng: Rng } | null>(null);
  const session = useRef(0); // bumped by every reset: answers for an older episode are dropped
  const policy = useRef<PolicyClient | null>(null);

  /** Makes the episode for `s` at t = 0, loading the episode logic first if need be. False if it could not. */
  const prepare = async (s: Settings, mine: number): Promise<boolean> => {
    const seed = parseSeed(s.seed);
    if (!seed.ok) return false;
    try {
      engine.current ??= await loadEngine(rules);
    } catch {
      if (session.current === mine) setStatus({ kind: 'error', message: 'The episode logic could not be loaded; check the connection and try again.' });
      return false;
    }
    if (session.current !== mine) return false;
    run.current = engine.current.start(s.problem, seed.seed);
    setView(engine.current.view(run.current.episode));
    return true;
  };

  const reset = (s: Settings) => {
    const mine = ++session.current;
    run.current = null;
    setStatus({ kind: 'idle' });
    void prepare(s, mine);
  };

  useEffect(() => {
    const early = root.current ? enteredEarly(root.current, initial) : initial;
    setSettings(early);
    if (!sameRun(early, initial)) reset(early);
    setReady(true);
    return () => policy.current?.dispose();
    // Once, on mount: `initial` is the server-rendered state.
  }, []);

  const change = (patch: Partial<Settings>) => {
    const next = { ...settings, ...patch };
    setSettings(next);
    if (!sameRun(next, settings)) reset(next); // γ only changes how the returns are summed
  };

  const seed = parseSeed(settings.seed);

  /** Steps until the episode ends (all) or once. */
  const advance = async (all: boolean) => {
    const mine = session.current;
    setStatus({ kind: backend ? 'busy' : 'loading' });
    if (!run.current && !(await prepare(settings, mine))) return;
    const current = run.current;
    if (!engine.current || !current || session.current !== mine) return;
    try {
      policy.current ??= await startPolicy();
      let episode = current.episode;
      do {
        const { probs, backend: used } = await policy.current.nextTokenProbs(engine.current.input(episode));
        if (session.current !== mine) return;
        if (probs.length !== engine.current.vocabSize) throw new Error(`the checkpoint has ${probs.length} tokens, the task ${engine.current.vocabSize}`);
        setBackend(used);
        episode = engine.current.step(episode, probs, current.rng, settings.greedy);
        current.episode = episode;
        setView(engine.current.view(episode));
      } while (all && !episode.end);
      setStatus({ kind: 'idle' });
    } catch (e) {
      if (session.current === mine) setStatus({ kind: 'error', message: `The policy could not answer: ${(e as Error).message}` });
    }
  };

  const working = status.kind === 'loading' || status.kind === 'busy';
  const t = view.actions;
  const canStep = ready && !working && seed.ok && view.end === null;

  return (
    <section ref={root} className="widget mdp-stepper" aria-labelledby={`${id}-title`} data-ready={ready || undefined}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Step through it</span> One episode of the agent lab, as an MDP
      </h3>
      <p className="widget-hint">
        The policy π<sub>θ</sub> is the checkpoint the agent lab starts from, after supervised fine-tuning. It runs in a Web Worker, which loads
        TensorFlow.js and the checkpoint when you first press Step; the calculator, the sampling and the reward run on this page.
      </p>
      <div className="widget-controls mdp-controls">
        <div>
          <label htmlFor={`${id}-problem`}>Problem x</label>
          <select id={`${id}-problem`} data-field="problem" value={settings.problem} onChange={(e) => change({ problem: e.target.value })}>
            {problems.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-seed`}>Seed</label>
          <input
            id={`${id}-seed`}
            data-field="seed"
            className="widget-text"
            inputMode="numeric"
            autoComplete="off"
            value={settings.seed}
            aria-invalid={!seed.ok || undefined}
            aria-describedby={`${id}-status`}
            onChange={(e) => change({ seed: e.target.value })}
          />
        </div>
        <fieldset className="mdp-radios">
          <legend>
            Choosing a<sub>t</sub>
          </legend>
          <label>
            <input type="radio" name={`${id}-decoding`} data-field="decoding" value="sample" checked={!settings.greedy} onChange={() => change({ greedy: false })} /> sampled (temperature 1)
          </label>
          <label>
            <input type="radio" name={`${id}-decoding`} data-field="decoding" value="greedy" checked={settings.greedy} onChange={() => change({ greedy: true })} /> greedy (most likely)
          </label>
        </fieldset>
        <fieldset className="mdp-radios">
          <legend>Discount γ</legend>
          <label>
            <input type="radio" name={`${id}-gamma`} data-field="gamma" value="1" checked={settings.gamma === 1} onChange={() => change({ gamma: 1 })} /> 1
          </label>
          <label>
            <input type="radio" name={`${id}-gamma`} data-field="gamma" value="0.9" checked={settings.gamma === 0.9} onChange={() => change({ gamma: 0.9 })} /> 0.9
          </label>
        </fieldset>
      </div>
      <div className="mdp-buttons">
        <button type="button" onClick={() => advance(false)} disabled={!canStep}>
          Step
        </button>
        <button type="button" onClick={() => advance(true)} disabled={!canStep}>
          Run to the end
        </button>
        <button type="button" onClick={() => reset(settings)} disabled={!ready}>
          Reset
        </button>
      </div>
      <div id={`${id}-status`} className="widget-messages" aria-live="polite" data-testid="mdp-status">
        {!seed.ok ? <p className="widget-error">{seed.error}</p> : null}
        {status.kind === 'error' ? <p className="widget-error">{status.message}</p> : null}
        {status.kind === 'loading' ? <p className="widget-computing">Loading the policy in a Web Worker (TensorFlow.js and the checkpoint)…</p> : null}
        <p>
          {view.end
            ? `The episode has ended after T = ${t} actions (${END_TEXT[view.end.reason]}). Reward ${fmt(view.end.reward)}; the returns are in the last column.`
            : t === 0
              ? `t = 0: the policy has not acted yet. Step asks it for π_θ(· | s_0), picks a_0 (${settings.greedy ? 'the most likely token' : 'a draw with the seed'}) and appends it; after a "]" the calculator appends its answer.`
              : `t = ${t}: ${t} action${t === 1 ? '' : 's'} taken. Step picks a_${t}.`}
          {backend ? ` The policy runs on tfjs's ${backend} backend, in a worker.` : ''}
        </p>
      </div>
      <MdpTable view={view} weights={rules.weights} gamma={settings.gamma} />
    </section>
  );
}

const END_TEXT = { eos: 'the policy wrote <eos>', length: 'cut off at the length limit', environment: 'the environment ended it: a call beyond the cap' } as const;
