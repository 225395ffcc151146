'use client';

import { useId, useState } from 'react';
import { configProblem, fieldProblem, parseAssignment, type FieldValue, type Schema } from '@/lib/train/config';
import type { Settings } from './settings';

interface Props {
  schema: Schema;
  /** Fields to show, in order. */
  fields: string[];
  settings: Settings;
  onChange(key: string, value: FieldValue): void;
  disabled?: boolean;
  /** Fields an assignment fixes: their controls are disabled and say so. */
  locked?: ReadonlySet<string>;
  /** Told each time a typed value is refused ('' once it is fixed): the value kept is the last good one, so a form that submits must know. */
  onProblem?(key: string, problem: string): void;
}

/** Controls named exactly as TRL's config fields, each with the reason for its default as help. */
export function SettingsForm({ schema, fields, settings, onChange, disabled, locked, onProblem }: Props) {
  const id = useId();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  /** Typed numbers follow the same rules as links and the CLI (lib/train/config.ts), so all three agree. */
  const commitNumber = (key: string, text: string) => {
    let value: FieldValue | undefined;
    let problem: string | null;
    try {
      [, value] = parseAssignment(schema, `${key}=${text}`);
      problem = fieldProblem(schema, key, value);
    } catch (error) {
      problem = configProblem(error);
    }
    setErrors((e) => ({ ...e, [key]: problem ?? '' }));
    onProblem?.(key, problem ?? '');
    if (problem) return;
    setDrafts(({ [key]: _, ...rest }) => rest);
    if (value !== undefined && value !== settings[key]) onChange(key, value);
  };

  return (
    <div className="settings-form">
      {fields.map((key) => {
        const field = schema[key];
        const inputId = `${id}-${key}`;
        const helpId = `${inputId}-help`;
        const error = errors[key];
        const fixed = disabled || locked?.has(key);
        return (
          <div className="setting" key={key}>
            <label htmlFor={inputId}>
              <code>{key}</code>
            </label>
            {field.kind === 'choice' ? (
              <select id={inputId} value={String(settings[key])} disabled={fixed} aria-describedby={helpId} onChange={(e) => onChange(key, e.target.value)}>
                {field.choices.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : field.kind === 'boolean' ? (
              <input id={inputId} type="checkbox" checked={Boolean(settings[key])} disabled={fixed} aria-describedby={helpId} onChange={(e) => onChange(key, e.target.checked)} />
            ) : (
              <input
                id={inputId}
                type="text"
                inputMode="decimal"
                value={drafts[key] ?? String(settings[key])}
                disabled={fixed}
                aria-invalid={error ? true : undefined}
                aria-describedby={helpId}
                onChange={(e) => setDrafts((d) => ({ ...d, [key]: e.target.value }))}
                onBlur={(e) => commitNumber(key, e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') commitNumber(key, (e.target as HTMLInputElement).value);
                }}
              />
            )}
            <p id={helpId} className={error ? 'setting-help setting-error' : 'setting-help'}>
              {locked?.has(key) ? <strong className="setting-locked">Locked by the assignment. </strong> : null}
              {error || field.reason}
            </p>
          </div>
        );
      })}
    </div>
  );
}
