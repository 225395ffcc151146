'use client';

import type { StepSample } from '../shell/useLabWorker';

const BAR_W = 10;
const H = 60;

/**
 * The singular values of each layer's update ΔW after the last step: LoRA's s·A·B has at most r nonzero ones; full
 * fine-tuning's W − W₀ may use every direction, and its effective rank says how many it really does.
 */
export function SpectrumPanel({ samples }: { samples: StepSample<'sft'>[] }) {
  const latest = samples.at(-1)?.data;
  if (!latest) return <p className="inspector-empty">Train for a step to see the singular values of each layer’s update.</p>;
  const top = Math.max(...latest.layers.flatMap((l) => l.singular), 1e-12);
  return (
    <div className="inspector spectrum-panel">
      <p className="inspector-summary">
        Step {latest.step}, {latest.kind === 'lora' ? 'LoRA: ΔW = s·A·B' : 'full fine-tuning: ΔW = W − W₀'}. Bars are the singular values of ΔW
        (largest first, up to 16), on one scale for all layers.
      </p>
      <div className="spectrum-grid">
        {latest.layers.map((layer) => (
          <figure key={layer.name} className="spectrum" aria-label={`${layer.name} singular values`}>
            <svg width={16 * (BAR_W + 2)} height={H} role="img" aria-label={`${layer.name}: ${layer.singular.map((s) => s.toPrecision(2)).join(', ')}`}>
              {layer.singular.map((s, i) => {
                const h = Math.max(1, (H * s) / top);
                return <rect key={i} x={i * (BAR_W + 2)} y={H - h} width={BAR_W} height={h} className="spectrum-bar" />;
              })}
            </svg>
            <figcaption>
              <code>{layer.name}</code> [{layer.shape.join(' × ')}] · effective rank <strong>{layer.effectiveRank.toFixed(1)}</strong>
            </figcaption>
          </figure>
        ))}
      </div>
      <p className="inspector-legend">
        Effective rank is exp of the entropy of the normalised singular values (Roy and Vetterli, 2007): k equal values give k.
      </p>
    </div>
  );
}
