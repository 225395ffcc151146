import { describe, expect, it } from 'vitest';
import { throttledSamples } from '@/labs/shell/throttled-samples';

describe('throttledSamples: the inspector gets at most one group per interval, and always the last one', () => {
  const setup = (lastStep = 10) => {
    let clock = 0;
    let step = 0;
    const reads: number[] = [];
    const sent: [number, string][] = [];
    // The reader stands for the trainer's inspect(): it sees the model after the latest step run (`at`).
    const samples = throttledSamples<string>(
      async () => {
        reads.push(step);
        return `after ${step}`;
      },
      (s, data) => sent.push([s, data]),
      lastStep,
      250,
      () => clock,
    );
    const at = async (s: number) => {
      step = s;
      await samples.offer(s);
    };
    return { samples, sent, reads, at, tick: (ms: number) => (clock += ms) };
  };

  it('sends the first step, holds steps inside the interval, and sends again once it has passed', async () => {
    const { sent, at, tick } = setup();
    await at(1);
    tick(40);
    await at(2);
    tick(40);
    await at(3);
    expect(sent.map(([s]) => s)).toEqual([1]);
    tick(200);
    await at(4);
    expect(sent).toEqual([
      [1, 'after 1'],
      [4, 'after 4'],
    ]);
  });

  it('reads the inspector only for the steps it sends (issue 50: the vision lab computed answers every step)', async () => {
    const { reads, at, tick } = setup(100);
    for (let s = 1; s <= 40; s++) {
      await at(s);
      tick(50);
    }
    expect(reads).toEqual([1, 6, 11, 16, 21, 26, 31, 36]);
  });

  it('sends the run’s last step at once, and flush reads and sends the latest held step (a pause) once', async () => {
    const { samples, sent, reads, at, tick } = setup(5);
    await at(1);
    tick(10);
    await at(2);
    await at(3);
    await samples.flush();
    await samples.flush();
    expect(sent).toEqual([
      [1, 'after 1'],
      [3, 'after 3'],
    ]);
    tick(10);
    await at(5);
    expect(sent.map(([s]) => s)).toEqual([1, 3, 5]);
    expect(reads).toEqual([1, 3, 5]);
  });

  it('sends nothing for a step whose inspector has nothing yet', async () => {
    const sent: number[] = [];
    const samples = throttledSamples<string>(async () => null, (s) => sent.push(s), 5);
    await samples.offer(1);
    expect(sent).toEqual([]);
  });
});
