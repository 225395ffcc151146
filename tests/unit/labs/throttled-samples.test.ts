import { describe, expect, it } from 'vitest';
import { throttledSamples } from '@/labs/shell/throttled-samples';

describe('throttledSamples: the inspector gets at most one group per interval, and always the last one', () => {
  const setup = (lastStep = 10) => {
    let clock = 0;
    const sent: number[] = [];
    const samples = throttledSamples<string>((step) => sent.push(step), lastStep, 250, () => clock);
    return { samples, sent, tick: (ms: number) => (clock += ms) };
  };

  it('sends the first step, holds steps inside the interval, and sends again once it has passed', () => {
    const { samples, sent, tick } = setup();
    samples.offer(1, 'a');
    tick(40);
    samples.offer(2, 'b');
    tick(40);
    samples.offer(3, 'c');
    expect(sent).toEqual([1]);
    tick(200);
    samples.offer(4, 'd');
    expect(sent).toEqual([1, 4]);
  });

  it('sends the run’s last step at once, and flush sends the latest held step (a pause) once', () => {
    const { samples, sent, tick } = setup(5);
    samples.offer(1, 'a');
    tick(10);
    samples.offer(2, 'b');
    samples.offer(3, 'c');
    samples.flush();
    samples.flush();
    expect(sent).toEqual([1, 3]);
    tick(10);
    samples.offer(5, 'e');
    expect(sent).toEqual([1, 3, 5]);
  });
});
