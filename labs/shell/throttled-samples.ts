/**
 * The inspector's samples are sent at most every `everyMs` while a run trains. At ~25 steps/s, drawing every step's
 * group on the page took CPU time from the training worker on a 2-core machine (issue 30's step target: the GRPO
 * lab's step fell from 40–49 ms to 32–42 ms with this), and no reader can read 25 groups a second. The last step's
 * samples always go at once, and `flush` sends the latest held ones when a run pauses or ends.
 */
export function throttledSamples<D>(send: (step: number, data: D) => void, lastStep: number, everyMs = 250, now: () => number = () => performance.now()) {
  let sentAt = -Infinity;
  let pending: { step: number; data: D } | null = null;
  const go = (step: number, data: D) => {
    sentAt = now();
    pending = null;
    send(step, data);
  };
  return {
    offer(step: number, data: D) {
      if (step >= lastStep || now() - sentAt >= everyMs) go(step, data);
      else pending = { step, data };
    },
    flush() {
      if (pending) go(pending.step, pending.data);
    },
  };
}
