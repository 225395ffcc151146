/**
 * How far a run has come and how long it has left, in words for the status line. Pure functions over the run's
 * clock (labs/shell/useLabWorker.ts keeps it): `stepTimes[i]` is the training time, in ms, that had passed when
 * step i + 1 was logged, counted only while the run trained (a pause stops the clock, so it never slows the pace).
 */
import { formatCount } from './format';

/**
 * The run's training time: it runs from Train (the model's build and the first evaluation are part of the wait) and
 * stops while the run is paused, so neither the estimate nor the final duration counts the time a reader stepped away.
 * After Pause the step under way still finishes: its time counts up to its log line (`since` then marks the pause).
 */
export class RunClock {
  private banked = 0;
  private since: number | null = null;
  private running = false;

  start(now: number): void {
    if (this.running) return;
    this.running = true;
    this.since = now;
  }

  /** The run left 'running' (paused, or ended): time stops, save for a paused step still finishing. */
  halt(now: number): void {
    if (this.running) this.bank(now); // a second halt (paused, then stopped) adds no paused time
    this.running = false;
  }

  /** Training time now; a log line that arrives after a pause extends it to the end of the step it closes. */
  read(now: number, stepEnded = false): number {
    if (this.running || stepEnded) this.bank(now);
    return this.banked;
  }

  private bank(now: number): void {
    if (this.since !== null) this.banked += now - this.since;
    this.since = now;
  }
}

/**
 * "step 845 of 1,600"; without a known total, just the count. Where the lab numbers its steps from 0 (the
 * self-improvement rounds, whose charts start at round 0), an index would disagree with the charts by one, so the
 * position is a count of what is done: "2 of 6 rounds done" while round 2 runs, "6 of 6 rounds done" after round 5.
 */
export function positionWords(unit: string, done: number, total: number | null, countDone = false): string {
  if (countDone) {
    const units = `${unit}${(total ?? done) === 1 ? '' : 's'}`;
    return total === null ? `${formatCount(done)} ${units} done` : `${formatCount(done)} of ${formatCount(total)} ${units} done`;
  }
  return total === null ? `${unit} ${formatCount(done)}` : `${unit} ${formatCount(done)} of ${formatCount(total)}`;
}

/**
 * How many step-to-step intervals the estimate waits for: three, so that the first steps (which also warm up kernels
 * and caches) do not speak alone; fewer for runs of a handful of long steps (six self-improvement rounds), where
 * waiting for three would leave almost nothing to estimate.
 */
export function intervalsNeeded(total: number): number {
  return Math.max(1, Math.min(3, Math.floor((total - 1) / 3)));
}

/**
 * The time the rest of the run should take, in ms, at the pace of its recent steps; null until there are enough
 * steps to measure (intervalsNeeded) or when no step is left. The pace is the mean over the last fifth of the steps
 * so far (at least intervalsNeeded): long enough to average over the evaluations that fall between some steps,
 * recent enough to follow a change of pace (a second phase, a switch of backend). The interval before step 1 is left
 * out: it holds the model's build and the first evaluation, which the remaining steps do not repeat.
 */
export function estimateMsLeft(stepTimes: readonly number[], total: number): number | null {
  const done = stepTimes.length;
  const left = total - done;
  const intervals = done - 1;
  const needed = intervalsNeeded(total);
  if (left <= 0 || intervals < needed) return null;
  const window = Math.min(intervals, Math.max(needed, Math.ceil(intervals / 5)));
  const pace = (stepTimes[done - 1] - stepTimes[done - 1 - window]) / window;
  return Number.isFinite(pace) && pace >= 0 ? pace * left : null;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Minutes and seconds (or hours and minutes) of a whole number of seconds, dropping a zero second part. */
function clockWords(totalSeconds: number): string {
  if (totalSeconds >= 3600) {
    const minutes = Math.round(totalSeconds / 60);
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const m = Math.floor(totalSeconds / 60);
  const s = totalSeconds % 60;
  if (m === 0) return `${s} s`;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/**
 * An estimate in words, rounded to what it can claim: "a few seconds left" under 10 s, then to 5 s under a minute, to
 * half a minute under 10 minutes, to the minute under an hour, and to 5 minutes beyond.
 */
export function timeLeftWords(ms: number): string {
  if (ms < 10 * SECOND) return 'a few seconds left';
  const seconds = ms / SECOND;
  const step = ms < MINUTE ? 5 : ms < 10 * MINUTE ? 30 : ms < HOUR ? 60 : 300;
  return `about ${clockWords(Math.round(seconds / step) * step)} left`;
}

/** A measured duration: tenths of a second under 10 s ("4.2 s"), whole seconds after ("1 min 27 s"). */
export function durationWords(ms: number): string {
  if (ms < 10 * SECOND) return `${(Math.max(0, ms) / SECOND).toFixed(1)} s`;
  return clockWords(Math.round(ms / SECOND));
}
