'use client';

import { Fragment, useId, useState } from 'react';
import { CALCULATOR_ERROR } from '@/lib/tasks/environment';
import type { AgentEpisode, AgentSamples } from '@/lib/train/agent-trainer';
import { RewardCells, RewardHeaders } from '../shell/SignedCell';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import { TokenTermsDisclosure } from '../shell/TokenTermsView';
import type { StepSample } from '../shell/useLabWorker';
import { ScrollBox } from '../shell/ScrollBox';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
const shown = (t: string) => (t === '<eos>' ? '⏎' : t === ' ' ? '␣' : t);

type Turn = { role: AgentEpisode['roles'][number]; tokens: string[]; call: number };

/**
 * An episode cut into turns: runs of tokens written by the same side (the policy, or the calculator). Each of the
 * calculator's turns is the reply to one call, numbered from 1.
 */
function turns(e: AgentEpisode): Turn[] {
  const out: Turn[] = [];
  let calls = 0;
  e.tokens.forEach((t, i) => {
    const role = e.roles[i];
    if (out.at(-1)?.role === role) out.at(-1)!.tokens.push(t);
    else out.push({ role, tokens: [t], call: role === 'observation' ? ++calls : calls });
  });
  return out;
}

/** The calculator's error reply, "=?": the call failed (malformed, too many operations, or a random failure). */
const failed = (turn: Turn) => turn.role === 'observation' && turn.tokens.join('') === CALCULATOR_ERROR;

/**
 * Who answered, from what the policy wrote just before: after an end of turn (⏎) it is the verdict "wrong" and one
 * more try (reflection); after ";" the memory task's distractors and question; after a call, the calculator or the
 * memory tool.
 */
type Source = 'calculator' | 'memory' | 'question' | 'wrong';
function sourceOf(all: Turn[], k: number, task: AgentSamples['task']): Source {
  const before = all[k - 1]?.tokens.at(-1);
  if (before === '<eos>') return 'wrong';
  if (before === ';') return 'question';
  return task === 'memory' ? 'memory' : 'calculator';
}
const SOURCE_NAME: Record<Source, string> = {
  calculator: 'the calculator’s reply',
  memory: 'the memory’s reply',
  question: 'the environment: distractors and the question',
  wrong: 'the environment: wrong, one more try',
};

/** Indices of a policy turn's tokens that write to memory ("[b=52]"). */
function memoryWrites(turn: Turn): Set<number> {
  const text = turn.tokens.map((t) => (t.length === 1 ? t : '\u0000')).join('');
  const marked = new Set<number>();
  for (const m of text.matchAll(/\[[a-e]=\d+\]/g)) for (let i = m.index!; i < m.index! + m[0].length; i++) marked.add(i);
  return marked;
}

/** Turn k comes before any end of turn: it is part of the first try, before the verdict. */
const beforeVerdict = (all: Turn[], k: number) => !all.slice(0, k).some((u) => u.tokens.includes('<eos>'));

/** Whether the episode's last try was right: the correctness reward (rewardNames[0]) is 1. */
const lastRight = (e: AgentEpisode) => e.rewards[0] === 1;

function summary(e: AgentEpisode, task: AgentSamples['task']): string {
  const tries = e.attempts > 1 ? `2 tries (first ${e.firstCorrect ? 'right' : 'wrong'}) → ${lastRight(e) ? 'fixed' : 'wrong again'}` : '';
  if (task === 'memory') return [e.usedMemory ? 'used memory' : 'no memory used', tries].filter(Boolean).join(' · ');
  const calls = `${e.calls}${e.failures > 0 ? ` (${e.failures} failed${e.retried ? ', called again' : ''})` : ''}`;
  return [calls, tries].filter(Boolean).join(' · ');
}

/**
 * Pick a step and a prompt; see each episode of its group turn by turn: the policy's tokens, every call and the
 * calculator's reply to it (marked as not trained on, unless the masking bug is on; a failed call's "=?" marked as
 * failed), with a second try its first try, the verdict and the second try labelled, the rewards and the advantage.
 */
export function TrajectoryViewer({ samples }: { samples: StepSample<'agent'>[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  const [groupIndex, setGroupIndex] = useState(0);
  if (!entry) return <p className="inspector-empty">Train for a step to see its episodes.</p>;

  const data = entry.data;
  const G = data.numGenerations;
  const groups = data.episodes.length / G;
  const g = Math.min(groupIndex, groups - 1);
  const episodes = data.episodes.slice(g * G, (g + 1) * G);
  const observationNote = data.trainedOnObservations
    ? 'trained on: the masking bug is on (train_on_tool_results), so the loss teaches the model to write these itself'
    : 'context only: masked out of the loss';

  return (
    <div className="inspector trajectory-viewer">
      <div className="inspector-pickers">
        <StepPicker id={`${id}-step`} steps={samples.map((s) => s.step)} value={entry.step} onChange={choose} />
        <label htmlFor={`${id}-prompt`}>Prompt</label>
        <select id={`${id}-prompt`} value={g} onChange={(e) => setGroupIndex(Number(e.target.value))}>
          {Array.from({ length: groups }, (_, i) => data.episodes[i * G]).map((e, i) => (
            <option key={i} value={i}>
              {e.prompt} (answer {e.answer}{e.easy ? ', a times-table fact' : ''})
            </option>
          ))}
        </select>
      </div>
      <p className="inspector-legend">
        <span className="tok">7</span> the policy&apos;s tokens (trained on) · <span className="tok tok-observation">=</span>{' '}
        {data.task === 'memory' ? 'the environment’s tokens: distractors, question, memory replies' : 'the calculator’s answer'} ({observationNote}) ·{' '}
        <span className="tok tok-observation tok-failed">=?</span> a failed call or read
        {data.task === 'memory' ? (
          <>
            {' '}· <span className="tok tok-memory-write">[b=52]</span> a memory write
          </>
        ) : null}{' '}
        · <span className="tok tok-observation tok-wrong">?</span> after ⏎: the verdict, wrong, one more try · ⏎ end of a turn
        {data.toolAfterVerdict ? ' · the calculator answers only after the verdict: a first try is from memory' : null}
      </p>
      <ScrollBox label="Episodes of this step">
        <table className="inspector-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">episode, turn by turn</th>
              <th scope="col">{data.task === 'memory' ? 'memory' : 'calls'}</th>
              <RewardHeaders names={data.rewardNames} weights={data.rewardWeights} />
            </tr>
          </thead>
          <tbody>
            {episodes.map((e, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td className="tokens">
                  {e.attempts > 1 ? <span className="try-label weight">1st try: </span> : null}
                  {turns(e).map((turn, k, all) => {
                    const source = turn.role === 'observation' ? sourceOf(all, k, data.task) : null;
                    const writes = turn.role === 'policy' && data.task === 'memory' ? memoryWrites(turn) : new Set<number>();
                    const tokClass = (j: number) =>
                      source ? `tok tok-observation${failed(turn) ? ' tok-failed' : ''}${source === 'wrong' ? ' tok-wrong' : ''}` : writes.has(j) ? 'tok tok-memory-write' : 'tok';
                    return (
                      <Fragment key={k}>
                        {source === 'wrong' ? <span className="try-label weight">verdict: </span> : null}
                        <span
                          className={`turn turn-${turn.role}${failed(turn) ? ' turn-failed' : ''}`}
                          data-role={turn.role}
                          data-source={source ?? undefined}
                          data-call={turn.role === 'observation' ? turn.call : undefined}
                        >
                          {source ? (
                            <span className="sr-only">
                              {SOURCE_NAME[source]}
                              {failed(turn) ? ', failed' : ''}, {data.trainedOnObservations ? 'trained on' : 'not trained on'}:{' '}
                            </span>
                          ) : null}
                          {turn.tokens.map((t, j) => (
                            <span
                              key={j}
                              className={tokClass(j)}
                              title={
                                source === 'calculator'
                                  ? `"${t}" from the calculator, reply to call ${turn.call}${failed(turn) ? ': the call failed' : ''} (${observationNote})`
                                  : source
                                    ? `"${t}": ${SOURCE_NAME[source]}${failed(turn) ? ', the read failed (nothing stored under that key)' : ''} (${observationNote})`
                                    : `"${t}" by the policy (trained on)${writes.has(j) ? ', writing to memory' : ''}${data.toolAfterVerdict && t === ']' && beforeVerdict(all, k) ? ': a call before the verdict, which the calculator leaves unanswered' : ''}`
                              }
                            >
                              {shown(t)}
                            </span>
                          ))}
                        </span>
                        {source === 'wrong' ? <span className="try-label weight"> 2nd try: </span> : null}
                      </Fragment>
                    );
                  })}
                </td>
                <td>{summary(e, data.task)}</td>
                <RewardCells rewards={e.rewards} total={e.total} advantage={e.advantage} format={fmt} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <TokenTermsDisclosure
        terms={data.tokenTerms}
        completions={(data.tokenTerms?.rows ?? []).map(({ row }) => ({ label: `${data.episodes[row]?.prompt ?? '?'} (episode ${(row % G) + 1})`, tokens: data.episodes[row]?.tokens ?? [] }))}
      />
    </div>
  );
}
