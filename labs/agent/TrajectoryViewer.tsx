'use client';

import { useId, useState } from 'react';
import { CALCULATOR_ERROR } from '@/lib/tasks/environment';
import type { AgentEpisode } from '@/lib/train/agent-trainer';
import { RewardCells, RewardHeaders } from '../shell/SignedCell';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import type { StepSample } from '../shell/useLabWorker';

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
 * Pick a step and a prompt; see each episode of its group turn by turn: the policy's tokens, every call and the
 * calculator's reply to it (marked as not trained on, unless the masking bug is on; a failed call's "=?" marked as
 * failed), the rewards and the advantage.
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
        answer ({observationNote}) · <span className="tok tok-observation tok-failed">=?</span> a failed call · ⏎ end of episode
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
                    <span key={k} className={`turn turn-${turn.role}${failed(turn) ? ' turn-failed' : ''}`} data-role={turn.role} data-call={turn.role === 'observation' ? turn.call : undefined}>
                      {turn.role === 'observation' ? (
                        <span className="sr-only">
                          calculator&apos;s reply to call {turn.call}
                          {failed(turn) ? ', the call failed' : ''}, {data.trainedOnObservations ? 'trained on' : 'not trained on'}:{' '}
                        </span>
                      ) : null}
                      {turn.tokens.map((t, j) => (
                        <span
                          key={j}
                          className={turn.role === 'observation' ? `tok tok-observation${failed(turn) ? ' tok-failed' : ''}` : 'tok'}
                          title={turn.role === 'observation' ? `"${t}" from the calculator, reply to call ${turn.call}${failed(turn) ? ': the call failed' : ''} (${observationNote})` : `"${t}" by the policy (trained on)`}
                        >
                          {shown(t)}
                        </span>
                      ))}
                    </span>
                  ))}
                </td>
                <td>
                  {e.calls}
                  {e.failures > 0 ? ` (${e.failures} failed${e.retried ? ', called again' : ''})` : ''}
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
