/**
 * A lab renders its worker's stream of small updates (a log line a step, the inspector's samples) at most every
 * `everyMs`, with the latest state each time; an update that must show at once (the run's state, an error, a backend)
 * renders at once and takes any waiting one with it. Rendering every log line re-rendered the whole lab 15–20 times a
 * second (each chart re-reads the run's history), and on a 2-core machine that page work is taken from the training
 * worker: the GRPO lab's main thread was busy 7.6 s of a 13.6 s run (issue 50). The numbers shown are unchanged:
 * every update is applied to the state at once (the caller keeps it), only React's copy of it waits.
 */
export function coalescedRenders<S>(
  render: (state: S) => void,
  everyMs = 250,
  now: () => number = () => performance.now(),
  later: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
  cancel: (timer: unknown) => void = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
) {
  let timer: unknown = null;
  let renderedAt = -Infinity;
  let latest: S;
  const flush = () => {
    if (timer !== null) cancel(timer);
    timer = null;
    renderedAt = now();
    render(latest);
  };
  return {
    /** Render `state` now. */
    now(state: S): void {
      latest = state;
      flush();
    },
    /** Render `state` within `everyMs` of the last render, with whatever arrives meanwhile. */
    soon(state: S): void {
      latest = state;
      if (timer !== null) return;
      const wait = renderedAt + everyMs - now();
      if (wait <= 0) flush();
      else timer = later(flush, wait);
    },
    /** Drops a waiting render (the lab is gone). */
    dispose(): void {
      if (timer !== null) cancel(timer);
      timer = null;
    },
  };
}
