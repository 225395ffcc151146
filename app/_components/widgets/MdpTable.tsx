import { Fragment } from 'react';
import { discountedReturns, fmt, fmtProb, type EpisodeView, type MdpRules, type Segment } from './mdp-view';

interface Props {
  view: EpisodeView;
  weights: MdpRules['weights'];
  gamma: number;
}

const ROLE_TEXT: Record<Segment['role'], string> = {
  prompt: 'prompt x',
  policy: 'policy',
  observation: 'environment, not trained on',
};

/** s_t as text, the environment's runs marked (a dashed box, and words for screen readers). */
function StateText({ segments }: { segments: Segment[] }) {
  return (
    <code className="mdp-state">
      {segments.map((s, i) =>
        s.role === 'observation' ? (
          <mark key={i} className="mdp-obs">
            <span className="sr-only">(from the environment: </span>
            {s.text}
            <span className="sr-only">)</span>
          </mark>
        ) : (
          <span key={i} className={`mdp-${s.role}`}>
            {s.text}
          </span>
        ),
      )}
    </code>
  );
}

/** The episode's rows: one per action a_t, one per observation, with r_t and (once it has ended) G_t. */
export function MdpTable({ view, weights, gamma }: Props) {
  const T = view.actions;
  const returns = view.end ? discountedReturns(view.rewards, gamma) : null;
  const end = view.end;
  const policyTurns = view.turns.filter((x) => x.role === 'policy').length;

  return (
    <>
      <figure className="mdp-now" data-testid="mdp-state">
        <figcaption>
          State s<sub>{T}</sub> {end ? '(final)' : `(t = ${T})`}: {view.stateTokens} tokens, BOS included
        </figcaption>
        <ul className="mdp-segments" aria-label="The state, by who wrote each part">
          {view.now.map((s, i) => (
            <li key={i} className={`mdp-seg mdp-seg-${s.role}`} data-role={s.role}>
              <span className="mdp-seg-role">{ROLE_TEXT[s.role]}</span>
              <code>{s.text.replaceAll(' ', '␣')}</code>
            </li>
          ))}
        </ul>
      </figure>
      <div className="mdp-table-wrap" tabIndex={0} role="region" aria-label="The episode, step by step">
        <table className="mdp-table" data-testid="mdp-table">
          <caption>
            The episode as an MDP: a row for each action a<sub>t</sub> the policy took, and a row for each observation the calculator appended. Returns
            appear when the episode ends.
          </caption>
          <thead>
            <tr>
              <th scope="col">t</th>
              <th scope="col">Who</th>
              <th scope="col">
                State s<sub>t</sub> <span className="th-note">prompt and tokens so far</span>
              </th>
              <th scope="col">
                Action a<sub>t</sub> <span className="th-note">or observation</span>
              </th>
              <th scope="col">
                π<sub>θ</sub>(a<sub>t</sub> | s<sub>t</sub>)
              </th>
              <th scope="col">
                r<sub>t</sub>
              </th>
              <th scope="col">
                G<sub>t</sub> <span className="th-note">γ = {gamma}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {T === 0 ? (
              <tr data-kind="empty">
                <td colSpan={7}>No action yet: the state is s_0 = the prompt x. Press Step.</td>
              </tr>
            ) : null}
            {view.rows.map((row) =>
              row.kind === 'action' ? (
                <tr key={`a${row.t}`} data-kind="action" data-t={row.t}>
                  <th scope="row">{row.t}</th>
                  <td>policy</td>
                  <td>
                    <StateText segments={row.state} />
                  </td>
                  <td>
                    <code className="mdp-token">{row.token}</code>
                    {row.call ? (
                      <span className="cell-note">
                        closes the call <code>{row.call.text}</code> (one turn-level action, p = {fmtProb(row.call.prob)})
                      </span>
                    ) : null}
                  </td>
                  <td className="mdp-num">{fmtProb(row.prob)}</td>
                  <td className="mdp-num" data-col="reward">
                    {fmt(view.rewards[row.t])}
                  </td>
                  <td className="mdp-num" data-col="return">
                    {returns ? fmt(returns[row.t]) : '—'}
                  </td>
                </tr>
              ) : (
                <tr key={`o${row.t}`} data-kind="observation" className="mdp-obs-row">
                  <th scope="row">
                    o<sub>{row.t}</sub>
                  </th>
                  <td>environment</td>
                  <td>—</td>
                  <td>
                    <code className="mdp-token">{row.text}</code>
                    <span className="cell-note">
                      observation: from the environment, not trained on; part of s<sub>{row.t}</sub>
                    </span>
                  </td>
                  <td className="mdp-num">not chosen</td>
                  <td className="mdp-num">—</td>
                  <td className="mdp-num">—</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
      <p className="mdp-formula" data-testid="mdp-returns">
        G<sub>t</sub> = r<sub>t</sub> + γ G<sub>t+1</sub>, with G<sub>T</sub> = 0.{' '}
        {end && returns
          ? `Here T = ${T}; every r_t is 0 except r_${T - 1} = ${weights.correctness} × ${end.correctness} (correct) + ${weights.format} × ${end.format} (format) = ${fmt(end.reward)}, so G_t = γ^(${T - 1}−t) × ${fmt(end.reward)}: G_0 = ${fmt(returns[0])} with γ = ${gamma}.`
          : 'The returns are computed backwards from the last step, once the episode has ended.'}
      </p>
      {T > 0 ? (
        <p className="mdp-turns" data-testid="mdp-turns">
          The same episode at turn level, {policyTurns} action{policyTurns === 1 ? '' : 's'} instead of {T} tokens (each action&apos;s probability is the product
          of its tokens&apos;):{' '}
          {view.turns.map((turn, i) => (
            <Fragment key={i}>
              {i > 0 ? ' → ' : ''}
              <code>{turn.text}</code>
              {turn.role === 'policy' ? ` (policy, ${fmtProb(turn.prob ?? 1)})` : ' (environment)'}
            </Fragment>
          ))}
        </p>
      ) : null}
    </>
  );
}
