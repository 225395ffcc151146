'use client';

import { useId, useRef, useState } from 'react';
import { MAX_TEXT_CHARS } from '@/lib/agentdata';
import { BROKEN_EXAMPLES } from '@/lib/agentdata/examples';
import { LabTokens } from './LabTokens';
import { runValidator, type ValidatorView } from './trajectory';

interface Props {
  initialText: string;
  initialView: ValidatorView;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${n === 1 ? word : word.replace(/y$/, 'ie')}${n === 1 ? '' : 's'}`;

/**
 * The textarea is uncontrolled: a pasted megabyte is never re-rendered by React, and text typed before this
 * chunk arrived stays. Validation runs on the reader's action; everything shown is React text, never HTML.
 */
export function TrajectoryValidatorClient({ initialText, initialView }: Props) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [view, setView] = useState(initialView);
  const [edited, setEdited] = useState(false);

  const validate = () => {
    setView(runValidator(area.current?.value ?? ''));
    setEdited(false);
  };
  const load = (index: number) => {
    if (!area.current) return;
    area.current.value = index < 0 ? initialText : BROKEN_EXAMPLES[index].text;
    validate();
  };

  const total = view.errors.length + view.omitted;
  const status = view.ok
    ? `Valid: ${plural(view.checked, 'trajectory')}, no errors.`
    : `${plural(total, 'error')}${view.checked === 0 ? '; nothing was checked' : ` in ${plural(view.checked, 'trajectory')}`}.`;

  return (
    <section className="widget trajectory-validator" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Validate a tool-call trajectory
      </h3>
      <p className="widget-hint">
        One trajectory in OpenAI&apos;s chat format, or JSONL with one per line (at most {MAX_TEXT_CHARS.toLocaleString('en-US')} characters).
      </p>
      <div className="tv-controls">
        <label htmlFor={`${id}-example`}>Load an example</label>
        <select id={`${id}-example`} data-testid="tv-example" defaultValue="" onChange={(e) => e.target.value !== '' && load(Number(e.target.value))}>
          <option value="" disabled>
            Choose…
          </option>
          <option value={-1}>Valid: two calculator calls</option>
          {BROKEN_EXAMPLES.map((e, i) => (
            <option key={e.code} value={i}>
              {e.code}: {e.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={`${id}-text`}>Trajectory (JSON or JSONL)</label>
      <textarea
        id={`${id}-text`}
        ref={area}
        className="widget-text tv-text"
        rows={14}
        spellCheck={false}
        autoComplete="off"
        defaultValue={initialText}
        aria-describedby={`${id}-status`}
        onChange={() => !edited && setEdited(true)}
      />
      <div className="tv-actions">
        <button type="button" className="tv-validate" onClick={validate}>
          Validate
        </button>
        {edited ? <span className="tv-edited">edited since the last check</span> : null}
      </div>
      <div id={`${id}-status`} className="widget-messages" aria-live="polite">
        <p className={view.ok ? 'tv-ok' : 'widget-error'} data-testid="tv-status">
          {status}
        </p>
      </div>
      {view.errors.length > 0 ? (
        <ol className="tv-errors" data-testid="tv-errors">
          {view.errors.map((e, i) => (
            <li key={i} data-code={e.code}>
              <code className="tv-code">{e.code}</code>
              <span className="tv-where">
                {e.line !== undefined ? `line ${e.line}` : null}
                {e.line !== undefined && e.path ? ' · ' : null}
                {e.path ? <code>{e.path}</code> : null}
              </span>
              <span className="tv-message">{e.message}</span>
            </li>
          ))}
        </ol>
      ) : null}
      {view.summary ? <p className="tv-summary">{view.summary}</p> : null}
      {view.episode && !view.episode.ok ? (
        <p className="tv-unconvertible" data-testid="tv-unconvertible">
          Valid, but it has no tokens in the agent lab: {view.episode.reason}.
        </p>
      ) : null}
      {view.episode?.ok ? <LabTokens tokens={view.episode.tokens} mask={view.episode.mask} roles={view.episode.roles} /> : null}
    </section>
  );
}
