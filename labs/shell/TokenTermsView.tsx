'use client';

import { useId, useState } from 'react';
import type { StepTokenTerms, TokenTermsRow } from '@/lib/train/token-terms';
import { ScrollBox } from './ScrollBox';

/** One recorded completion: a label for the picker and its tokens, aligned with the row's terms. */
export interface TokenViewCompletion {
  label: string;
  tokens: string[];
}

const CHAPTER = '/chapters/grpo/';
const shownToken = (t: string) => (t === '<eos>' ? '⏎' : t === '<pad>' ? '·' : t === ' ' ? '␣' : t);
const fixed = (v: number, digits = 4) => (Object.is(v, -0) ? 0 : v).toFixed(digits);
const signed = (v: number) => (v > 0 ? '+' : '') + fixed(v, 3);

/** A weight as the chapter's table writes it (1/57) when it is one over a whole number, else in 3 digits. */
function weightText(w: number): string {
  if (w === 0) return '0';
  const inverse = 1 / w;
  return Math.abs(inverse - Math.round(inverse)) < 1e-3 * inverse ? `1/${Math.round(inverse)}` : w.toPrecision(3);
}

function clipText(c: TokenTermsRow['clipped'][number], terms: StepTokenTerms): string {
  if (c === 'low') return `low (ρ < 1 − ε = ${fixed(1 - terms.epsilon, 4)})`;
  if (c === 'high') return `high (ρ > 1 + ε_high = ${fixed(1 + terms.epsilonHigh, 4)})`;
  return '—';
}

/** Why the ratio is (or is not) 1 on this step: chapter 6, "One update per batch: the ratio is exactly 1". */
function RatioNote({ terms }: { terms: StepTokenTerms }) {
  if (terms.update === 1) {
    return (
      <p className="inspector-legend">
        This step was update 1 of {terms.updates} on its generation batch: the policy being trained is the one that sampled it, so every
        ratio is 1 and nothing can be clipped (<a href={`${CHAPTER}#one-update-per-batch-the-ratio-is-exactly-1`}>chapter 6: the ratio is exactly 1</a>).
        {terms.updates === 1
          ? ' Raise num_iterations or steps_per_generation (in the GRPO lab the dapo_clip_higher and gspo presets do) to see ratios leave 1.'
          : ' Step on: the later updates on this batch are off-policy.'}
      </p>
    );
  }
  return (
    <p className="inspector-legend">
      This step was update {terms.update} of {terms.updates} on its generation batch: the policy has moved {terms.update - 1} update
      {terms.update > 2 ? 's' : ''} since it sampled these completions, so the ratio π_θ / π_θ_old leaves 1 and the clip can bind.
    </p>
  );
}

/**
 * A few completions of a step's training slice, token by token, with the numbers the loss computed on that step's
 * forward (lib/rl/grpo-token-terms.ts): the importance ratio ρ (TRL's coef_1), which clip bound held it, the
 * advantage Â, the token's weight under loss_type, its k3 KL term (β > 0) and its loss term ℓ.
 */
export function TokenTermsView({ terms, completions }: { terms: StepTokenTerms; completions: TokenViewCompletion[] }) {
  const id = useId();
  const [chosen, setChosen] = useState(0);
  if (terms.rows.length === 0) return <p className="inspector-empty">This step recorded no completions.</p>;
  const k = Math.min(chosen, terms.rows.length - 1);
  const row = terms.rows[k];
  const tokens = completions[k]?.tokens ?? [];
  const sequence = terms.level === 'sequence';
  const positions = Array.from({ length: Math.min(tokens.length, row.mask.length) }, (_, t) => t);
  const settings = `loss_type '${terms.lossType}', importance_sampling_level '${terms.level}', ε = ${terms.epsilon}, ε_high = ${terms.epsilonHigh}, β = ${terms.beta}`;

  return (
    <div className="token-view">
      <RatioNote terms={terms} />
      <div className="inspector-pickers">
        <label htmlFor={`${id}-row`}>Completion</label>
        <select id={`${id}-row`} value={k} onChange={(e) => setChosen(Number(e.target.value))}>
          {terms.rows.map((r, i) => (
            <option key={r.row} value={i}>
              {completions[i]?.label ?? `row ${r.row + 1}`} (Â {signed(r.advantage)})
            </option>
          ))}
        </select>
      </div>
      <p className="inspector-summary">
        Run settings: {settings}. The step&apos;s loss is the sum of weight × ℓ over every token of its slice.
      </p>
      {sequence && (
        <p className="inspector-summary">
          Sequence ratio s_i (GSPO, one per completion): <strong>{fixed(row.ratio[0])}</strong>, clipped: <strong>{clipText(row.clipped[0], terms)}</strong>.
        </p>
      )}
      <ScrollBox label="Token terms">
        <table className="token-terms">
          <caption>The chosen completion&apos;s tokens, with the terms this step&apos;s loss computed for each</caption>
          <thead>
            <tr>
              <th scope="col">t</th>
              <th scope="col">token</th>
              {!sequence && <th scope="col" title="TRL: coef_1 = exp(log π_θ − log π_θ_old)">ratio ρ<sub>i,t</sub></th>}
              {!sequence && <th scope="col" title="TRL: is_low_clipped / is_high_clipped">clipped (ε_low / ε_high)</th>}
              <th scope="col" title="TRL: advantages">advantage Â<sub>i</sub></th>
              <th scope="col" title={`The token's weight in the loss under loss_type '${terms.lossType}'`}>weight ({terms.lossType})</th>
              {row.kl && <th scope="col" title="TRL: per_token_kl, the k3 estimate u − log u − 1">KL k3</th>}
              <th scope="col" title="TRL: per_token_loss">ℓ<sub>i,t</sub></th>
            </tr>
          </thead>
          <tbody>
            {positions.map((t) => {
              const counted = row.mask[t] === 1;
              return (
                <tr key={t} className={counted ? undefined : 'tok-excluded-row'}>
                  <th scope="row">{t + 1}</th>
                  <td className="token-cell">{shownToken(tokens[t])}</td>
                  {!sequence && <td>{counted ? fixed(row.ratio[t]) : '—'}</td>}
                  {!sequence && <td>{counted ? clipText(row.clipped[t], terms) : 'not in the loss'}</td>}
                  <td>{counted ? signed(row.advantage) : '—'}</td>
                  <td>{counted ? weightText(row.weight[t]) : '0'}</td>
                  {row.kl && <td>{counted ? fixed(row.kl[t], 5) : '—'}</td>}
                  <td>{counted ? fixed(row.loss[t]) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      <p className="inspector-legend">
        ℓ = −min(ρ·Â, clip(ρ, 1 − ε, 1 + ε_high)·Â){row.kl ? ' + β·k3' : ''}. A clipped token gets no gradient: its ratio has already moved
        past the bound in the direction its advantage wants (<a href={`${CHAPTER}#what-the-clip-does`}>what the clip does</a>). The weight is
        how loss_type averages tokens (<a href={`${CHAPTER}#aggregating-the-loss-over-tokens`}>aggregating the loss over tokens</a>)
        {row.kl ? <>; k3 is the KL term, u − log u − 1 with u = π_ref / π_θ (<a href={`${CHAPTER}#the-kl-term-and-the-k3-estimator`}>the k3 estimator</a>)</> : ''}.
      </p>
    </div>
  );
}

/** The view behind a disclosure, so the inspector stays short until a reader asks for the tokens. */
export function TokenTermsDisclosure({ terms, completions }: { terms: StepTokenTerms | null | undefined; completions: TokenViewCompletion[] }) {
  return (
    <details className="token-view-details">
      <summary>Token view: ratio, clipping, advantage, weight and KL per token</summary>
      {terms ? <TokenTermsView terms={terms} completions={completions} /> : <p className="inspector-empty">Train for a step to see its tokens.</p>}
    </details>
  );
}
