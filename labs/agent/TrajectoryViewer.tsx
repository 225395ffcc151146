'use client';

import { useId, useState } from 'react';
import type { AgentEpisode } from '@/lib/train/agent-trainer';
import { RewardCells, RewardHeaders } from '../shell/SignedCell';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import type { StepSample } from '../shell/useLabWorker';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
const shown = (t: string) => (t === '<eos>' ? '⏎' : t === ' ' ? '␣' : t);

/** An episode cut into turns: runs of tokens written by the same side (the policy, or the calculator). */
function turns(e: AgentEpisode): { role: AgentEpisode['roles'][number]; tokens: string[] }[] {
  const out: { role: AgentEpisode['roles'][number]; tokens: string[] }[] = [];
  e.tokens.forEach((t, i) => {
    const role = e.roles[i];
    if (out.at(-1)?.role === role) out.at(-1)!.tokens.push(t);
    else out.push({ role, tokens: [t] });
  });
  return out;
}

/**
 * Pick a step and a prompt; see each episode of its group turn by turn: the policy's tokens, its call, the
 * calculator's answer (marked as not trained on, unless the masking bug is on), the rewards and the advantage.
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
        <span className="tok">7</span> the policy&apos;s tokens (trained on) · <span className="tok tok-observation">=</span> the calculator&apos;s
        answer ({observationNote}) · ⏎ end of episode
      </p>
      <div className="inspector-scroll">
        <table className="inspector-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">episode, turn by turn</th>
              <th scope="col">calls</th>
              <RewardHeaders names={data.rewardNames} weights={data.rewardWeights} />
            </tr>
          </thead>
          <tbody>
            {episodes.map((e, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td className="tokens">
                  {turns(e).map((turn, k) => (
                    <span key={k} className={`turn turn-${turn.role}`} data-role={turn.role}>
                      {turn.role === 'observation' ? <span className="sr-only">calculator, {data.trainedOnObservations ? 'trained on' : 'not trained on'}: </span> : null}
                      {turn.tokens.map((t, j) => (
                        <span key={j} className={turn.role === 'observation' ? 'tok tok-observation' : 'tok'} title={turn.role === 'observation' ? `"${t}" from the calculator (${observationNote})` : `"${t}" by the policy (trained on)`}>
                          {shown(t)}
                        </span>
                      ))}
                    </span>
                  ))}
                </td>
                <td>
                  {e.calls}
                  {e.failures > 0 ? ` (${e.failures} malformed)` : ''}
                </td>
                <RewardCells rewards={e.rewards} total={e.total} advantage={e.advantage} format={fmt} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
