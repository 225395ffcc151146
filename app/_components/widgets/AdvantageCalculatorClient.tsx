'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { computeAdvantages, MAX_REWARDS, parseRewards, SCALES, signed, type AdvantageTable } from './advantages';
import { fieldsBeforeHydration } from './hydration';
import { useNumeric, type Job } from './useNumeric';

const SCALE_HEADERS = {
  group: 'r − group mean, ÷ group std',
  batch: 'r − group mean, ÷ batch std',
  none: 'r − group mean',
} as const;

interface Props {
  initialText: string;
  initialTable: AdvantageTable;
}

/** Shows the build-time table until the reader edits; then recomputes live in the numeric worker. */
export function AdvantageCalculatorClient({ initialText, initialTable }: Props) {
  const id = useId();
  const [text, setText] = useState(initialText);
  const [edited, setEdited] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // This component's code loads after the page (islands/Island.tsx): keep what a quick reader typed before it arrived.
  useEffect(() => {
    const typed = fieldsBeforeHydration(input.current?.parentElement ?? null).get('rewards');
    if (typeof typed === 'string' && typed !== initialText) {
      setText(typed);
      setEdited(true);
    }
  }, [initialText]);

  const parsed = useMemo(() => parseRewards(text), [text]);
  const job = useMemo(
    (): Job<AdvantageTable> => (parsed.ok && edited ? (face) => computeAdvantages(face, parsed.groups) : null),
    [parsed, edited],
  );
  // The last good table stays on screen while the input is invalid or the worker is still answering.
  const { value: shown, error: computeError, slow } = useNumeric(initialTable, job, 'the calculator');

  const error = parsed.ok ? computeError : parsed.error;
  const computing = parsed.ok && slow;
  const stale = !parsed.ok || computing;
  const multi = shown.groups.length > 1;
  let row = 0;

  return (
    <section className="widget advantage-calculator" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Group-relative advantages
      </h3>
      <label htmlFor={`${id}-input`}>Rewards of one group, or several groups separated by “;” (at most {MAX_REWARDS} numbers)</label>
      <input
        id={`${id}-input`}
        className="widget-text"
        type="text"
        inputMode="decimal"
        spellCheck={false}
        autoComplete="off"
        ref={input}
        data-field="rewards"
        value={text}
        aria-invalid={!parsed.ok}
        aria-describedby={`${id}-msg`}
        onChange={(e) => {
          setEdited(true);
          setText(e.target.value);
        }}
      />
      <div id={`${id}-msg`} aria-live="polite" className="widget-messages">
        {error ? <p className="widget-error">{error}</p> : null}
        {computing ? <p className="widget-computing">computing…</p> : null}
      </div>
      {/* Focusable: on a phone the table scrolls sideways (tables are blocks that scroll: globals.css). */}
      <table className={`advantage-table${stale ? ' stale' : ''}`} data-testid="advantage-table" tabIndex={0}>
        <caption>
          Advantage of each answer under each <code>scale_rewards</code>
          {!parsed.ok ? ' (last valid input)' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Answer</th>
            <th scope="col">Reward</th>
            {SCALES.map((s) => (
              <th scope="col" key={s} data-scale={s}>
                <code>&apos;{s}&apos;</code>
                <span className="th-note">{SCALE_HEADERS[s]}</span>
              </th>
            ))}
          </tr>
        </thead>
        {shown.groups.map((group, g) => (
          <tbody key={g}>
            {group.map((reward, i) => {
              const k = row++;
              return (
                <tr key={i}>
                  <th scope="row">{multi ? `${g + 1}.${i + 1}` : i + 1}</th>
                  <td>{reward}</td>
                  {SCALES.map((s) => {
                    const v = signed(shown.advantages[s][k]);
                    const cls = v.sign > 0 ? 'pos' : v.sign < 0 ? 'neg' : 'zero';
                    return (
                      <td key={s} data-scale={s} className={`adv ${cls}`}>
                        {v.text}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
      <ul className="widget-stats">
        {shown.stats.map((s, g) => (
          <li key={g}>
            {multi ? `Group ${g + 1}` : 'Group'}: mean {s.mean.toFixed(3)}, std {s.std.toFixed(3)} (unbiased, n − 1)
            {s.std === 0 ? ': all rewards equal, so every advantage is 0 and this group teaches nothing' : ''}
          </li>
        ))}
        <li>
          {multi
            ? `Batch (all ${shown.groups.flat().length} rewards): std ${shown.batch.std.toFixed(3)}, the divisor under 'batch'.`
            : "With one group the batch is that group, so 'batch' equals 'group'. Type two groups, e.g. 1, 0; 1, 1, to see them differ."}
        </li>
        <li>Under &apos;group&apos; and &apos;batch&apos; the std has 10⁻⁴ added before dividing, as in TRL.</li>
      </ul>
    </section>
  );
}
