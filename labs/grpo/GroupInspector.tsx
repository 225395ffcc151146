'use client';

import { useId, useState } from 'react';
import { RewardCells, RewardHeaders } from '../shell/SignedCell';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import { TokenTermsDisclosure } from '../shell/TokenTermsView';
import type { StepSample } from '../shell/useLabWorker';
import { ScrollBox } from '../shell/ScrollBox';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

/** Shows a token; tokens outside the completion mask (padding after EOS) are marked as excluded from the loss. */
function Token({ text, counted }: { text: string; counted: boolean }) {
  const shown = text === '<eos>' ? '⏎' : text === '<pad>' ? '·' : text === ' ' ? '␣' : text;
  return (
    <span className={counted ? 'tok' : 'tok tok-excluded'} title={counted ? `"${text}" (in the loss)` : `"${text}" (excluded from the loss)`}>
      {shown}
    </span>
  );
}

/** The token view's rows are rows of the generation batch: group r / G, completion r mod G. */
function tokenViewCompletions(data: StepSample<'grpo'>['data']) {
  const G = data.groups[0]?.completions.length ?? 1;
  return (data.tokenTerms?.rows ?? []).map(({ row }) => {
    const group = data.groups[Math.floor(row / G)];
    const c = group?.completions[row % G];
    return { label: `${group?.prompt ?? '?'} → ${c?.text ?? '?'} (#${(row % G) + 1})`, tokens: c?.tokens ?? [] };
  });
}

/** Pick a step and a prompt; see its G completions with each reward, the group's mean and std, and the advantages. */
export function GroupInspector({ samples }: { samples: StepSample<'grpo'>[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  const [promptIndex, setPromptIndex] = useState(0);
  if (!entry) return <p className="inspector-empty">Train for a step to inspect its groups.</p>;

  const data = entry.data;
  const group = data.groups[Math.min(promptIndex, data.groups.length - 1)];
  const totals = group.completions.map((c) => c.total);
  const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
  const std = Math.sqrt(totals.reduce((s, t) => s + (t - mean) ** 2, 0) / Math.max(totals.length - 1, 1));

  return (
    <div className="inspector">
      <div className="inspector-pickers">
        <StepPicker id={`${id}-step`} steps={samples.map((s) => s.step)} value={entry.step} onChange={choose} />
        <label htmlFor={`${id}-prompt`}>Prompt</label>
        <select id={`${id}-prompt`} value={Math.min(promptIndex, data.groups.length - 1)} onChange={(e) => setPromptIndex(Number(e.target.value))}>
          {data.groups.map((g, i) => (
            <option key={i} value={i}>
              {g.prompt} (answer {g.answer})
            </option>
          ))}
        </select>
      </div>
      <p className="inspector-summary">
        Group of {group.completions.length}: mean reward <strong>{fmt(mean)}</strong>, std <strong>{fmt(std)}</strong>
        {std < 1e-6 ? ' — every completion scored the same, so every advantage is 0: this group teaches nothing.' : '.'}
      </p>
      <ScrollBox label="Completions of this group">
        <table className="inspector-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">completion tokens</th>
              <RewardHeaders names={data.rewardNames} weights={data.rewardWeights} />
            </tr>
          </thead>
          <tbody>
            {group.completions.map((c, i) => {
              return (
                <tr key={i}>
                  <th scope="row">{i + 1}</th>
                  <td className="tokens">
                    {c.tokens.map((t, j) => (
                      <Token key={j} text={t} counted={c.mask[j] === 1} />
                    ))}
                  </td>
                  <RewardCells rewards={c.rewards} total={c.total} advantage={c.advantage} format={fmt} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      <p className="inspector-legend">
        Grey tokens come after the end of the completion and are excluded from the loss. Advantages are the trainer&apos;s own, under the
        run&apos;s scale_rewards; with &apos;group&apos; they are (total − mean) / (std + 1e-4).
      </p>
      <TokenTermsDisclosure terms={data.tokenTerms} completions={tokenViewCompletions(data)} />
    </div>
  );
}
