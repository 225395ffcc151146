'use client';

import { GRID_MAPS, parseMap, type GridMapName } from '@/lib/tasks/gridworld';
import type { StepSample } from '../shell/useLabWorker';

const ARROWS = ['↑', '→', '↓', '←'];
const MOVES: [number, number][] = [[-1, 0], [0, 1], [1, 0], [0, -1]];
const CELL = 56;

/** Follow the most likely action from the start (no slip) until the episode would end: the greedy path. */
function greedyPath(cells: string[][], start: [number, number], probs: number[][], limit: number): [number, number][] {
  const path: [number, number][] = [start];
  let [r, c] = start;
  for (let t = 0; t < limit; t++) {
    const p = probs[r * cells[0].length + c];
    const a = p.indexOf(Math.max(...p));
    const [nr, nc] = [r + MOVES[a][0], c + MOVES[a][1]];
    if (nr >= 0 && nr < cells.length && nc >= 0 && nc < cells[0].length && cells[nr][nc] !== 'wall') [r, c] = [nr, nc];
    path.push([r, c]);
    if (cells[r][c] === 'goal' || cells[r][c] === 'lava') break;
  }
  return path;
}

/** The grid world with the policy drawn on it: the likeliest action per cell, its probability, V(s), and the greedy path. */
export function GridView({ samples, map, limit }: { samples: StepSample<'ppo'>[]; map: string; limit: number }) {
  if (!(map in GRID_MAPS)) return <p className="inspector-empty">The grid view shows the grid-world maps; CartPole has no grid.</p>;
  const { cells, start } = parseMap(GRID_MAPS[map as GridMapName]);
  const latest = samples.at(-1);
  const policy = latest?.data;
  const rows = cells.length;
  const cols = cells[0].length;
  const path = policy ? greedyPath(cells, start as [number, number], policy.probs, limit) : [];
  const reached = path.length > 0 ? cells[path.at(-1)![0]][path.at(-1)![1]] : null;
  const summary = !policy
    ? 'Train for a step to see the policy.'
    : `After update ${latest!.step}, the greedy path takes ${path.length - 1} steps and ends ${reached === 'goal' ? 'at the goal' : reached === 'lava' ? 'in the lava' : 'nowhere (it loops or runs out of time)'}.`;
  return (
    <div className="grid-view">
      <svg viewBox={`0 0 ${cols * CELL} ${rows * CELL}`} width={cols * CELL} height={rows * CELL} role="img" aria-label={`Grid world policy. ${summary}`}>
        {cells.map((row, r) =>
          row.map((cell, c) => {
            const i = r * cols + c;
            const p = policy?.probs[i];
            const best = p ? p.indexOf(Math.max(...p)) : -1;
            const v = policy?.values[i] ?? 0;
            const fill = cell === 'lava' ? '#d9534f' : cell === 'goal' ? '#3c9d5d' : cell === 'wall' ? '#555' : `rgba(47, 126, 216, ${Math.min(0.6, Math.max(0, v) * 0.6)})`;
            return (
              <g key={`${r}-${c}`} transform={`translate(${c * CELL}, ${r * CELL})`}>
                <rect width={CELL} height={CELL} fill={fill} stroke="var(--border)" />
                {cell === 'goal' || cell === 'lava' || cell === 'start' ? (
                  <text x={4} y={13} fontSize={11} fill={cell === 'start' ? 'var(--fg)' : '#fff'}>
                    {cell === 'goal' ? 'G +1' : cell === 'lava' ? 'L −1' : 'S'}
                  </text>
                ) : null}
                {p && cell !== 'goal' && cell !== 'lava' && cell !== 'wall' ? (
                  <text x={CELL / 2} y={CELL / 2 + 8} textAnchor="middle" fontSize={22} fill="var(--fg)" opacity={0.35 + 0.65 * p[best]}>
                    {ARROWS[best]}
                  </text>
                ) : null}
              </g>
            );
          }),
        )}
        {path.length > 1 ? (
          <polyline points={path.map(([r, c]) => `${c * CELL + CELL / 2},${r * CELL + CELL / 2}`).join(' ')} fill="none" stroke="#e8743b" strokeWidth={4} strokeLinejoin="round" opacity={0.8} />
        ) : null}
      </svg>
      <p className="inspector-summary">{summary}</p>
      <p className="inspector-legend">Arrows: the likeliest action (fainter = less sure). Blue shade: the critic&apos;s value V(s). Orange: the greedy path from S.</p>
    </div>
  );
}
