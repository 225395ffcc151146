'use client';

import { useId } from 'react';
import type { VisionColour, VisionScene, VisionShape } from '@/lib/train/vision-inspector';
import { describeScene } from './scene-text';

/** One cell in SVG units; the picture is size × CELL wide. */
const CELL = 20;
/** Shape colours: the picture's own, the same in both themes (the picture is drawn on white, as the trainer draws it). */
const FILL: Record<VisionColour, string> = { red: '#d62728', green: '#2ca02c', blue: '#1f5fbf', yellow: '#f2c200' };

function Shape({ shape, colour, x, y }: { shape: VisionShape; colour: VisionColour; x: number; y: number }) {
  const m = CELL * 0.15; // margin inside the cell
  const s = CELL - 2 * m;
  const fill = FILL[colour];
  if (shape === 'square') return <rect x={x + m} y={y + m} width={s} height={s} fill={fill} />;
  if (shape === 'circle') return <circle cx={x + CELL / 2} cy={y + CELL / 2} r={s / 2} fill={fill} />;
  // The right triangle the task rasterises (lib/tasks/vision.ts): corner at the bottom left.
  return <polygon points={`${x + m},${y + m} ${x + CELL - m},${y + CELL - m} ${x + m},${y + CELL - m}`} fill={fill} />;
}

export type OverlayMode = 'spotlight' | 'heat';

/**
 * The attention over patches drawn on the picture: one translucent rectangle per patch. 'heat' tints each patch's
 * background in proportion to its weight, under the shapes (a tint over them would change the colours the questions
 * ask about); 'spotlight' veils the patches the answer did not look at, over the shapes, so the ones it did stay
 * clear. Both scale to the largest weight, so a spread-out attention still shows where its peak is.
 */
function AttentionOverlay({ attention, patchGrid, width, mode }: { attention: readonly number[]; patchGrid: number; width: number; mode: OverlayMode }) {
  const peak = Math.max(...attention, 1e-9);
  const side = width / patchGrid;
  return (
    <g className={`vision-overlay vision-overlay-${mode}`}>
      {attention.map((a, i) => {
        const share = a / peak;
        const opacity = mode === 'heat' ? 0.75 * share : 0.8 * (1 - share);
        return <rect key={i} x={(i % patchGrid) * side} y={Math.floor(i / patchGrid) * side} width={side} height={side} opacity={opacity} />;
      })}
    </g>
  );
}

/**
 * A picture as SVG, named by `name` (the question and its answer) and described cell by cell for a screen reader;
 * with `attention`, the answer's attention over the patches drawn on top.
 */
export function ScenePicture({
  scene,
  name,
  attention,
  patchGrid,
  mode = 'heat',
  mark,
  className,
}: {
  scene: VisionScene;
  name: string;
  attention?: readonly number[] | null;
  patchGrid?: number;
  mode?: OverlayMode;
  /** A cell to outline, [row, column] from 0: the one the question asks about. */
  mark?: [number, number] | null;
  className?: string;
}) {
  const id = useId();
  const width = scene.size * CELL;
  const overlay = attention && patchGrid ? <AttentionOverlay attention={attention} patchGrid={patchGrid} width={width} mode={mode} /> : null;
  return (
    <svg
      className={`vision-picture ${className ?? ''}`}
      viewBox={`-1 -1 ${width + 2} ${width + 2}`}
      role="img"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-d`}
    >
      <title id={`${id}-t`}>{name}</title>
      <desc id={`${id}-d`}>{describeScene(scene)}</desc>
      <rect className="vision-canvas" x={0} y={0} width={width} height={width} />
      {Array.from({ length: scene.size - 1 }, (_, k) => (
        <g key={k} className="vision-gridline">
          <line x1={(k + 1) * CELL} y1={0} x2={(k + 1) * CELL} y2={width} />
          <line x1={0} y1={(k + 1) * CELL} x2={width} y2={(k + 1) * CELL} />
        </g>
      ))}
      {overlay && mode === 'heat' ? overlay : null}
      {scene.cells.map((cell, i) =>
        cell ? <Shape key={i} shape={cell.shape} colour={cell.colour} x={(i % scene.size) * CELL} y={Math.floor(i / scene.size) * CELL} /> : null,
      )}
      {overlay && mode === 'spotlight' ? overlay : null}
      {mark && mark[0] < scene.size && mark[1] < scene.size ? (
        <rect className="vision-mark" x={mark[1] * CELL + 1} y={mark[0] * CELL + 1} width={CELL - 2} height={CELL - 2} />
      ) : null}
    </svg>
  );
}
