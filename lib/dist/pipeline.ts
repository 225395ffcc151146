/**
 * Pipeline parallelism: the bubble formulas and a small simulator that lays out each stage's forward and
 * backward blocks in time. Schedules: GPipe (Huang et al. 2018, arXiv:1811.06965), 1F1B as in
 * PipeDream-Flush (Narayanan et al. 2020, arXiv:2006.09503) and Megatron-LM's interleaved 1F1B
 * (Narayanan et al. 2021, arXiv:2104.04473, section 2.2).
 *
 * Convention: the bubble is the idle fraction of total pipeline time, idle / (stages × makespan), with
 * communication taking no time. Narayanan et al. report instead bubble time over ideal time, (p − 1)/m and
 * (p − 1)/(v·m); the two are related by f = r / (1 + r).
 */

export type Schedule = 'gpipe' | '1f1b' | 'interleaved';
export const SCHEDULES: readonly Schedule[] = ['gpipe', '1f1b', 'interleaved'];

export interface PipelineArgs {
  /** p, the number of pipeline stages (devices). */
  stages: number;
  /** m, micro-batches per training step. */
  microbatches: number;
  schedule: Schedule;
  /** v, model chunks per stage: interleaved only (≥ 2, default 2); the other schedules have one. */
  chunks?: number;
}

function checkArgs(a: PipelineArgs): { p: number; m: number; v: number } {
  const int = (x: number, name: string, min: number) => {
    if (!(Number.isInteger(x) && x >= min)) throw new Error(`${name} must be an integer ≥ ${min}, got ${x}`);
  };
  int(a.stages, 'stages', 1);
  int(a.microbatches, 'microbatches', 1);
  if (!SCHEDULES.includes(a.schedule)) throw new Error(`schedule must be one of ${SCHEDULES.join(', ')}, got ${String(a.schedule)}`);
  const v = a.schedule === 'interleaved' ? (a.chunks ?? 2) : 1;
  // One chunk per stage is plain 1F1B; Megatron-LM's interleaved schedule starts at two.
  if (a.schedule === 'interleaved') int(v, 'chunks', 2);
  return { p: a.stages, m: a.microbatches, v };
}

/**
 * Idle fraction of total pipeline time: (p − 1)/(m + p − 1) for GPipe and 1F1B, (p − 1)/(v·m + p − 1) for
 * the interleaved schedule with v chunks per stage. The fill and drain cost p − 1 block-times per stage;
 * interleaving makes each block v times shorter.
 */
export function pipelineBubble(args: PipelineArgs): number {
  const { p, m, v } = checkArgs(args);
  return (p - 1) / (v * m + p - 1);
}

export interface PipelineOp {
  stage: number;
  kind: 'F' | 'B';
  microbatch: number;
  /** Model chunk on this stage (0 unless interleaved); its layers are virtual stage chunk·p + stage. */
  chunk: number;
  start: number;
  end: number;
}

export interface PipelineTimeline {
  ops: PipelineOp[];
  makespan: number;
  /** idle / (stages × makespan), measured on the simulated schedule. */
  idleFraction: number;
  /** Per stage: the most micro-batches whose activations it holds at once (forward done, backward not),
   *  in units of one micro-batch through the whole stage (an interleaved chunk counts 1/v). */
  peakInFlight: number[];
}

type Slot = { kind: 'F' | 'B'; microbatch: number; chunk: number };

/** The order in which one stage runs its blocks; the simulator starts each as early as its inputs allow. */
export function stageOrder(stage: number, args: PipelineArgs): Slot[] {
  const { p, m, v } = checkArgs(args);
  const F = (microbatch: number, chunk = 0): Slot => ({ kind: 'F', microbatch, chunk });
  const B = (microbatch: number, chunk = 0): Slot => ({ kind: 'B', microbatch, chunk });
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  if (args.schedule === 'gpipe') return [...range(m).map((i) => F(i)), ...range(m).map((i) => B(m - 1 - i))];
  if (args.schedule === '1f1b') {
    const warm = Math.min(p - stage - 1, m);
    const steady = range(m - warm).flatMap((i) => [F(warm + i), B(i)]);
    return [...range(warm).map((i) => F(i)), ...steady, ...range(warm).map((i) => B(m - warm + i))];
  }
  // Interleaved (Megatron-LM): micro-batches go through the chunks in groups of p.
  if (m % p !== 0) throw new Error(`the interleaved schedule needs microbatches to be a multiple of stages (${m} is not a multiple of ${p})`);
  const total = m * v;
  const at = (k: number, backward: boolean): Slot => {
    const group = Math.floor(k / (p * v));
    const within = k % (p * v);
    const c = Math.floor(within / p);
    return { kind: backward ? 'B' : 'F', microbatch: group * p + (within % p), chunk: backward ? v - 1 - c : c };
  };
  const warm = Math.min((p - stage - 1) * 2 + (v - 1) * p, total);
  const order = range(warm).map((k) => at(k, false));
  for (let i = 0; i < total - warm; i++) order.push(at(warm + i, false), at(i, true));
  for (let i = total - warm; i < total; i++) order.push(at(i, true));
  return order;
}

/**
 * Runs each stage's blocks in order, each as soon as the stage is free and its input has arrived: a
 * forward needs the same micro-batch's forward on the previous virtual stage, a backward the backward on the
 * next one (and, on the last, its own forward). A stage's forward of one micro-batch takes forwardTime,
 * its backward backwardTime (default 1 and 2: the backward computes two gradients); a chunk takes 1/v of it.
 */
export function simulatePipeline(args: PipelineArgs & { forwardTime?: number; backwardTime?: number }): PipelineTimeline {
  const { p, m, v } = checkArgs(args);
  const tf = (args.forwardTime ?? 1) / v;
  const tb = (args.backwardTime ?? 2) / v;
  if (!(tf > 0 && tb > 0)) throw new Error('forwardTime and backwardTime must be positive');
  const orders = Array.from({ length: p }, (_, s) => stageOrder(s, args));
  const last = v * p - 1; // the last virtual stage
  const done = new Map<string, number>(); // "F|mb|virtual stage" → end time
  const key = (kind: string, mb: number, vs: number) => `${kind}|${mb}|${vs}`;
  const next = new Array<number>(p).fill(0);
  const free = new Array<number>(p).fill(0);
  const ops: PipelineOp[] = [];
  let remaining = orders.reduce((n, o) => n + o.length, 0);
  while (remaining > 0) {
    let progressed = false;
    for (let s = 0; s < p; s++) {
      while (next[s] < orders[s].length) {
        const slot = orders[s][next[s]];
        const vs = slot.chunk * p + s;
        const dep =
          slot.kind === 'F'
            ? vs === 0 ? 0 : done.get(key('F', slot.microbatch, vs - 1))
            : vs === last ? done.get(key('F', slot.microbatch, vs)) : done.get(key('B', slot.microbatch, vs + 1));
        if (dep === undefined) break; // its input is not computed yet: try the other stages
        const start = Math.max(free[s], dep);
        const end = start + (slot.kind === 'F' ? tf : tb);
        done.set(key(slot.kind, slot.microbatch, vs), end);
        ops.push({ stage: s, kind: slot.kind, microbatch: slot.microbatch, chunk: slot.chunk, start, end });
        free[s] = end;
        next[s]++;
        remaining--;
        progressed = true;
      }
    }
    if (!progressed) throw new Error('the schedule deadlocks'); // cannot happen for the three schedules above
  }
  const makespan = Math.max(...free);
  const busy = ops.reduce((t, o) => t + (o.end - o.start), 0);
  return { ops, makespan, idleFraction: 1 - busy / (p * makespan), peakInFlight: peaks(ops, p, v) };
}

function peaks(ops: PipelineOp[], p: number, v: number): number[] {
  return Array.from({ length: p }, (_, s) => {
    const mine = ops.filter((o) => o.stage === s).sort((a, b) => a.start - b.start);
    let held = 0;
    let peak = 0;
    for (const o of mine) {
      held += o.kind === 'F' ? 1 : -1;
      peak = Math.max(peak, held);
    }
    return peak / v;
  });
}
