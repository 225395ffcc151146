/**
 * The inspector's samples are sent at most every `everyMs` while a run trains. At ~25 steps/s, drawing every step's
 * group on the page took CPU time from the training worker on a 2-core machine (issue 30's step target: the GRPO
 * lab's step fell from 40–49 ms to 32–42 ms with this), and no reader can read 25 groups a second. The last step's
 * samples always go at once, and `flush` sends the latest held step's when a run pauses or ends.
 *
 * The samples are read (`read`, the trainer's inspect()) only for a step that is sent, never for one that is held:
 * some inspectors compute (the vision lab's greedy answers and attention: ~30% of an SFT step), and reading every step
 * to send one in ten cost the browser's run that much more than Node's, which never inspects (issue 50). A held step
 * is read by `flush`, so call it only while no step has run since that one (the run paused between steps, or ended):
 * the model is then as it was after the held step, and the samples are the ones an eager read would have sent.
 */
export function throttledSamples<D>(read: () => Promise<D | null>, send: (step: number, data: D) => void, lastStep: number, everyMs = 250, now: () => number = () => performance.now()) {
  let sentAt = -Infinity;
  let pending: number | null = null;
  const go = async (step: number) => {
    sentAt = now();
    pending = null;
    const data = await read();
    if (data !== null) send(step, data);
  };
  return {
    async offer(step: number): Promise<void> {
      if (step >= lastStep || now() - sentAt >= everyMs) await go(step);
      else pending = step;
    },
    async flush(): Promise<void> {
      if (pending !== null) await go(pending);
    },
  };
}
