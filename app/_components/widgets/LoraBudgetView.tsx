import type { BasePrecision, LoraBudget, ModelPreset } from '@/lib/lora/budget';
import { formatBytes, formatCount, formatPercent } from '@/lib/lora/format';

interface Props {
  budget: LoraBudget;
  model: ModelPreset;
  base: BasePrecision;
  r: number;
  stale: boolean;
}

const BASE_NAMES: Record<BasePrecision, string> = { bf16: 'bf16', fp32: 'fp32', nf4: '4-bit NF4', 'nf4-dq': '4-bit NF4, double-quantised' };

/** The calculator's results: adapter parameters per module, then training memory beside full fine-tuning. */
export function LoraBudgetView({ budget: b, model, base, r, stale }: Props) {
  const m = b.memory;
  const ft = b.fullFineTuning;
  const scale = Math.max(m.total, ft.total);
  const pct = (x: number) => `${((100 * x) / scale).toFixed(2)}%`;
  const lora = [
    { key: 'base', label: `frozen base (${BASE_NAMES[base]})`, bytes: m.baseWeights },
    { key: 'adapter', label: 'adapter weights + gradients + Adam', bytes: m.adapterWeights + m.adapterGrads + m.adamStates },
  ];
  const full = [
    { key: 'base', label: 'bf16 weights + gradients', bytes: ft.weights + ft.grads },
    { key: 'adam', label: 'fp32 master weights + Adam', bytes: ft.masterWeights + ft.adamStates },
  ];
  return (
    <div className={stale ? 'lora-results stale' : 'lora-results'}>
      <div className="gae-table-wrap" tabIndex={0} role="region" aria-label="Trainable parameters per module">
        <table className="lora-table" data-testid="lora-modules">
          <caption>
            {model.name}, r = {r}: A is r × d<sub>in</sub>, B is d<sub>out</sub> × r{stale ? ' (last valid input)' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">module</th>
              <th scope="col">
                d<sub>in</sub> → d<sub>out</sub>
              </th>
              <th scope="col">
                per layer<span className="th-note">r·(d<sub>in</sub> + d<sub>out</sub>)</span>
              </th>
              <th scope="col">
                × {model.layers} layers
              </th>
            </tr>
          </thead>
          <tbody>
            {b.modules.map((row) => (
              <tr key={row.name} data-module={row.name}>
                <th scope="row">
                  <code>{row.name}</code>
                </th>
                <td>
                  {formatCount(row.dIn)} → {formatCount(row.dOut)}
                </td>
                <td>{formatCount(row.perLayer)}</td>
                <td>{formatCount(row.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                trainable parameters
              </th>
              <td data-testid="lora-trainable">{formatCount(b.trainable)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <ul className="widget-stats">
        <li>
          <span data-testid="lora-percent">{formatPercent(b.trainablePercent)}</span> of {formatCount(b.model.total)} parameters
          (PEFT&apos;s <code>trainable%</code>, adapter included in the total)
          {model.tiedEmbeddings ? '; the embedding is tied to lm_head and counted once' : ''}.
        </li>
        <li>
          Update scale s = <span data-testid="lora-scaling">{Number(b.scaling.toFixed(4))}</span>
        </li>
      </ul>
      <div className="gae-table-wrap" tabIndex={0} role="region" aria-label="Training memory">
        <table className="lora-table" data-testid="lora-memory">
          <caption>Static training memory (activations, KV cache and framework overhead not included)</caption>
          <tbody>
            <tr>
              <th scope="row">frozen base weights, {BASE_NAMES[base]}</th>
              <td data-testid="lora-base-bytes">{formatBytes(m.baseWeights)}</td>
            </tr>
            <tr>
              <th scope="row">adapter weights, fp32 (4 B/param)</th>
              <td>{formatBytes(m.adapterWeights)}</td>
            </tr>
            <tr>
              <th scope="row">adapter gradients, fp32 (4 B/param)</th>
              <td>{formatBytes(m.adapterGrads)}</td>
            </tr>
            <tr>
              <th scope="row">Adam moments m and v, fp32 (8 B/param)</th>
              <td>{formatBytes(m.adamStates)}</td>
            </tr>
            <tr className="lora-total">
              <th scope="row">LoRA total</th>
              <td data-testid="lora-total-bytes">{formatBytes(m.total)}</td>
            </tr>
            <tr className="lora-total">
              <th scope="row">full fine-tuning, mixed-precision Adam (16 B/param)</th>
              <td data-testid="lora-full-bytes">{formatBytes(ft.total)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className="lora-bars" aria-hidden="true">
        {[
          ['LoRA', lora],
          ['full FT', full],
        ].map(([name, parts]) => (
          <div className="lora-bar-row" key={name as string}>
            <span className="lora-bar-name">{name as string}</span>
            <span className="lora-bar">
              {(parts as typeof lora).map((p) => (
                <span key={p.key} className={`lora-seg lora-seg-${p.key}`} style={{ width: pct(p.bytes) }} title={`${p.label}: ${formatBytes(p.bytes)}`} />
              ))}
            </span>
          </div>
        ))}
        <p className="lora-legend">
          <span className="lora-key lora-seg-base" /> weights (and, for full fine-tuning, their gradients){' '}
          <span className="lora-key lora-seg-adapter" /> adapter state <span className="lora-key lora-seg-adam" /> fp32 master copy and Adam moments
        </p>
      </div>
    </div>
  );
}
