'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { MAX_TEXT_CHARS } from '@/lib/agentdata/limits';
import { LabTokens } from './LabTokens';
import type { ExampleChoice, ValidatorView } from './trajectory';

interface Props {
  initialText: string;
  initialView: ValidatorView;
  examples: ExampleChoice[];
}

// The validator and the example texts: a chunk of their own, fetched on first use.
const loadValidator = () => import('./trajectory');

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${n === 1 ? word : word.replace(/y$/, 'ie')}${n === 1 ? '' : 's'}`;

/**
 * The textarea is uncontrolled: a pasted megabyte is never re-rendered by React, and text typed before this
 * chunk arrived stays. Validation runs on the reader's action; everything shown is React text, never HTML.
 */
export function TrajectoryValidatorClient({ initialText, initialView, examples }: Props) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [view, setView] = useState(initialView);
  const [edited, setEdited] = useState(false);
  const [ready, setReady] = useState(false);
  // Text typed while this chunk was on its way: React resets a textarea to its default when it hydrates it,
  // so the first render (which runs before that) reads the server-rendered element's value once.
  const [typedEarly] = useState(() => (typeof document === 'undefined' ? null : (document.getElementById(`${id}-text`) as HTMLTextAreaElement | null)?.value ?? null));

  useEffect(() => {
    if (area.current && typedEarly !== null && typedEarly !== initialText) {
      area.current.value = typedEarly;
      setEdited(true);
    }
    setReady(true);
  }, [initialText, typedEarly]);

  const [loadError, setLoadError] = useState<string | null>(null);

  const validate = async (example?: number) => {
    try {
      const { runValidator, exampleText } = await loadValidator();
      if (!area.current) return;
      if (example !== undefined) area.current.value = exampleText(example);
      setView(runValidator(area.current.value));
      setEdited(false);
      setLoadError(null);
    } catch {
      setLoadError('The validator could not be loaded; check the connection and try again.');
    }
  };

  const total = view.errors.length + view.omitted;
  const status = view.ok
    ? `Valid: ${plural(view.checked, 'trajectory')}, no errors.`
    : `${plural(total, 'error')}${view.checked === 0 ? '; nothing was checked' : ` in ${plural(view.checked, 'trajectory')}`}.`;

  return (
    <section className="widget trajectory-validator" aria-labelledby={`${id}-title`} data-ready={ready || undefined}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Validate a tool-call trajectory
      </h3>
      <p className="widget-hint">
        One trajectory in OpenAI&apos;s chat format, or JSONL with one per line (at most {MAX_TEXT_CHARS.toLocaleString('en-US')} characters).
      </p>
      <div className="tv-controls">
        <label htmlFor={`${id}-example`}>Load an example</label>
        <select id={`${id}-example`} defaultValue="" onChange={(e) => e.target.value !== '' && validate(Number(e.target.value))}>
          <option value="" disabled>
            Choose…
          </option>
          {examples.map((e) => (
            <option key={e.index} value={e.index}>
              {e.label}
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
        <button type="button" className="tv-validate" onClick={() => validate()}>
          Validate
        </button>
        {edited ? <span className="tv-edited">edited since the last check</span> : null}
      </div>
      <div id={`${id}-status`} className="widget-messages" aria-live="polite">
        {loadError ? <p className="widget-error">{loadError}</p> : null}
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
