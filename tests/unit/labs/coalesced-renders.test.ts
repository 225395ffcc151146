import { describe, expect, it } from 'vitest';
import { coalescedRenders } from '@/labs/shell/coalesced-renders';

describe('coalescedRenders: a lab renders its log lines at most every interval, with the latest state (issue 50)', () => {
  const setup = () => {
    let clock = 0;
    const rendered: number[] = [];
    const timers: { at: number; fn: () => void }[] = [];
    const renders = coalescedRenders<number>(
      (s) => rendered.push(s),
      250,
      () => clock,
      (fn, ms) => {
        const timer = { at: clock + ms, fn };
        timers.push(timer);
        return timer;
      },
      (timer) => timers.splice(timers.indexOf(timer as (typeof timers)[number]), 1),
    );
    const tick = (ms: number) => {
      clock += ms;
      for (const t of timers.filter((t) => t.at <= clock)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    };
    return { renders, rendered, tick, pending: () => timers.length };
  };

  it('renders the first update at once, then one render per interval with the latest of the updates in it', () => {
    const { renders, rendered, tick } = setup();
    renders.soon(1);
    for (let s = 2; s <= 20; s++) {
      tick(50);
      renders.soon(s);
    }
    tick(250);
    // 20 log lines 50 ms apart: 5 renders, not 20, and the last one shows line 20.
    expect(rendered).toEqual([1, 5, 10, 15, 20]);
  });

  it('renders an urgent update at once, taking the waiting one with it', () => {
    const { renders, rendered, tick, pending } = setup();
    renders.soon(1);
    tick(10);
    renders.soon(2);
    expect(pending()).toBe(1);
    renders.now(3);
    expect(rendered).toEqual([1, 3]);
    expect(pending()).toBe(0);
    tick(1000);
    expect(rendered).toEqual([1, 3]);
  });

  it('drops a waiting render when disposed', () => {
    const { renders, rendered, tick } = setup();
    renders.soon(1);
    renders.soon(2);
    renders.dispose();
    tick(1000);
    expect(rendered).toEqual([1]);
  });
});
