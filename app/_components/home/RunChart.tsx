import { homeRun } from '@/content/recorded-runs';
import { labNamed } from '@/content/labs';
import { CHART, runChartModel } from './run-chart';
import './home.css';

/** The GRPO lab's recorded default run, drawn on the server as SVG (no script), with a link to run it. */
export function RunChart() {
  const run = homeRun();
  const chart = runChartModel(run);
  const lab = labNamed(run.lab)!;
  const { width, height, left, right, top, bottom } = CHART;
  const baseline = height - bottom;
  return (
    <figure className="run-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="run-chart-title" aria-describedby="run-chart-desc">
        <title id="run-chart-title">{`A recorded run of the ${lab.title} lab (preset ${run.preset}, seed ${run.seed})`}</title>
        <desc id="run-chart-desc">{chart.description}</desc>
        {chart.yTicks.map((t) => (
          <g key={`y${t.value}`} className="run-chart-grid">
            <line x1={left} x2={width - right} y1={t.y} y2={t.y} />
            <text x={left - 8} y={t.y + 4} textAnchor="end">
              {t.value}
            </text>
          </g>
        ))}
        {chart.xTicks.map((t) => (
          <text key={`x${t.value}`} className="run-chart-tick" x={t.x} y={baseline + 18} textAnchor="middle">
            {t.value}
          </text>
        ))}
        <line className="run-chart-axis" x1={left} x2={width - right} y1={baseline} y2={baseline} />
        <line className="run-chart-axis" x1={left} x2={left} y1={top} y2={baseline} />
        <text className="run-chart-label" x={(left + width - right) / 2} y={height - 6} textAnchor="middle">
          training step
        </text>
        <text className="run-chart-label" transform={`translate(14 ${(top + baseline) / 2}) rotate(-90)`} textAnchor="middle">
          accuracy / reward
        </text>
        <path className="run-chart-reward" d={chart.reward.path} />
        <path className="run-chart-accuracy" d={chart.accuracy.path} />
        {chart.accuracy.points.map(([x, y], i) => (
          <circle key={i} className="run-chart-accuracy-dot" cx={x} cy={y} r={3.5} />
        ))}
      </svg>
      <figcaption>
        <span className="run-chart-legend">
          <span className="run-chart-key accuracy" aria-hidden="true" /> held-out accuracy (<code>eval/accuracy</code>){' '}
          <span className="run-chart-key reward" aria-hidden="true" /> training reward (<code>reward</code>)
        </span>
        <span>
          {chart.description} Recorded with <code>{run.command}</code>: the {lab.title} lab&apos;s default preset, seed {run.seed}, {chart.maxStep} steps on
          WebAssembly.
        </span>
        <a className="button" href={`/labs/${lab.slug}/`}>
          Run it yourself
        </a>
      </figcaption>
    </figure>
  );
}
