'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { pipelineBubble, SCHEDULES, simulatePipeline, type Schedule } from '@/lib/dist';
import { fieldsBeforeHydration } from './hydration';
import { BubbleCurve, PipelineChart } from './PipelineChart';
import { CHUNK_CHOICES, MAX_MICROBATCHES, normalise, pct, SCHEDULE_LABEL, STAGE_CHOICES, type PipelineSettings } from './pipeline-options';

const FORMULA: Record<Schedule, string> = { gpipe: '(p − 1)/(m + p − 1)', '1f1b': '(p − 1)/(m + p − 1)', interleaved: '(p − 1)/(v·m + p − 1)' };

/** GPipe, 1F1B and interleaved 1F1B drawn for p stages and m micro-batches, with the bubble simulated and by formula. */
export function PipelineTimelineClient({ initial }: { initial: PipelineSettings }) {
  const id = useId();
  const root = useRef<HTMLElement>(null);
  const [s, setS] = useState(initial);
  useEffect(() => {
    const dom = fieldsBeforeHydration(root.current);
    setS((cur) =>
      normalise({
        schedule: (dom.get('schedule') as Schedule | undefined) ?? cur.schedule,
        stages: Number(dom.get('stages') ?? cur.stages),
        microbatches: Number(dom.get('microbatches') ?? cur.microbatches),
        chunks: Number(dom.get('chunks') ?? cur.chunks),
      }),
    );
  }, []);
  const update = (patch: Partial<PipelineSettings>) => setS((cur) => normalise({ ...cur, ...patch }));

  const timeline = useMemo(() => simulatePipeline(s), [s]);
  const formula = pipelineBubble(s);
  const v = s.schedule === 'interleaved' ? s.chunks : 1;
  const step = s.schedule === 'interleaved' ? s.stages : 1;
  const { schedule, stages, chunks } = s;
  const curve = useMemo(() => {
    const ms = Array.from({ length: Math.floor(MAX_MICROBATCHES / step) }, (_, i) => (i + 1) * step);
    return ms.map((m) => ({ m, f: pipelineBubble({ schedule, stages, chunks, microbatches: m }) }));
  }, [schedule, stages, chunks, step]);
  const busy = useMemo(() => {
    const perStage = timeline.peakInFlight.map(() => 0);
    for (const o of timeline.ops) perStage[o.stage] += o.end - o.start;
    return perStage;
  }, [timeline]);

  return (
    <section ref={root} className="widget pipeline-timeline" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Pipeline schedules and their bubble
      </h3>
      <div className="widget-controls dist-controls">
        <fieldset className="dist-radios">
          <legend>Schedule</legend>
          {SCHEDULES.map((k) => (
            <label key={k} className="dist-radio">
              <input type="radio" name={`${id}-schedule`} data-field="schedule" value={k} checked={s.schedule === k} onChange={() => update({ schedule: k })} />
              {SCHEDULE_LABEL[k]}
            </label>
          ))}
        </fieldset>
        <div className="dist-field">
          <label htmlFor={`${id}-stages`}>Stages p</label>
          <select id={`${id}-stages`} data-field="stages" value={s.stages} onChange={(e) => update({ stages: Number(e.target.value) })}>
            {STAGE_CHOICES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="widget-slider">
          <label htmlFor={`${id}-m`}>
            Micro-batches m{' '}
            <output htmlFor={`${id}-m`} data-testid="pp-m-value">
              {s.microbatches}
            </output>
          </label>
          <input
            id={`${id}-m`}
            type="range"
            data-field="microbatches"
            min={step}
            max={Math.floor(MAX_MICROBATCHES / step) * step}
            step={step}
            value={s.microbatches}
            onChange={(e) => update({ microbatches: Number(e.target.value) })}
          />
        </div>
        <div className="dist-field">
          <label htmlFor={`${id}-chunks`}>Chunks per stage v (interleaved)</label>
          <select id={`${id}-chunks`} data-field="chunks" value={s.chunks} disabled={s.schedule !== 'interleaved'} onChange={(e) => update({ chunks: Number(e.target.value) })}>
            {CHUNK_CHOICES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="pp-bubble" data-testid="pp-bubble" aria-live="polite">
        Bubble: the stages idle <strong>{pct(timeline.idleFraction)}</strong> of the time in this simulation; the formula {FORMULA[s.schedule]} with p = {s.stages}, m ={' '}
        {s.microbatches}
        {v > 1 ? `, v = ${v}` : ''} gives <strong data-testid="pp-formula">{pct(formula)}</strong>.
      </p>
      <div className="pp-wrap">
        <PipelineChart timeline={timeline} stages={s.stages} schedule={s.schedule} chunks={v} />
        <ul className="mem-legend" aria-hidden="true">
          <li>
            <span className="mem-swatch pp-swatch-F" /> forward of micro-batch n
          </li>
          <li>
            <span className="mem-swatch pp-swatch-B" /> backward (twice as long)
          </li>
          <li>
            <span className="mem-swatch pp-swatch-idle" /> idle: the bubble
          </li>
          {v > 1 ? <li>lighter blocks: the stage’s odd-numbered chunks</li> : null}
        </ul>
      </div>
      <div className="pp-side">
        <BubbleCurve points={curve} current={s.microbatches} />
        <div className="pp-table-wrap" tabIndex={0} role="region" aria-label="Per-stage times">
          <table className="pp-table" data-testid="pp-table">
            <caption>Per stage (time in forward-block units)</caption>
            <thead>
              <tr>
                <th scope="col">Stage</th>
                <th scope="col">Busy</th>
                <th scope="col">Idle</th>
                <th scope="col">Peak activations (micro-batches)</th>
              </tr>
            </thead>
            <tbody>
              {timeline.peakInFlight.map((peak, stage) => (
                <tr key={stage}>
                  <th scope="row">{stage + 1}</th>
                  <td>{+busy[stage].toFixed(2)}</td>
                  <td>{+(timeline.makespan - busy[stage]).toFixed(2)}</td>
                  <td>{+peak.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
