import { describe, expect, it } from 'vitest';
import { durationWords, estimateMsLeft, intervalsNeeded, positionWords, RunClock, timeLeftWords } from '@/labs/shell/progress';

/** Step log times (ms of training) for steps taking `ms` each after a first step that ends at `first`. */
const evenSteps = (count: number, ms: number, first = 0) => Array.from({ length: count }, (_, i) => first + i * ms);

describe('positionWords: where the run stands, out of its total', () => {
  it('counts steps or rounds out of the run’s length, with the site’s thousands separators', () => {
    expect(positionWords('step', 845, 1600)).toBe('step 845 of 1,600');
    expect(positionWords('round', 2, 6)).toBe('round 2 of 6');
    expect(positionWords('round', 2, 6, true)).toBe('2 of 6 rounds done');
    expect(positionWords('round', 1, 1, true)).toBe('1 of 1 round done');
    expect(positionWords('round', 3, null, true)).toBe('3 rounds done');
    expect(positionWords('step', 12_345, 100_000)).toBe('step 12,345 of 100,000');
  });

  it('says only the count when the total is not known', () => {
    expect(positionWords('step', 3, null)).toBe('step 3');
  });
});

describe('estimateMsLeft: the rest of the run at the pace of its recent steps', () => {
  it('says nothing until a few steps have been timed', () => {
    expect(estimateMsLeft([], 60)).toBeNull();
    expect(estimateMsLeft(evenSteps(3, 100, 5000), 60)).toBeNull(); // two intervals, three needed
    expect(estimateMsLeft(evenSteps(4, 100, 5000), 60)).toBe(56 * 100);
  });

  it('leaves out the first step, which carries the build and the first evaluation', () => {
    // Step 1 ends after 30 s of setup; the steps after take 100 ms each.
    expect(estimateMsLeft(evenSteps(10, 100, 30_000), 100)).toBeCloseTo(90 * 100);
  });

  it('follows a change of pace: the estimate rests on the recent steps, not the mean since the start', () => {
    // 40 steps at 50 ms, then 40 at 200 ms (a slower second phase): the last fifth is all at the new pace.
    const fast = evenSteps(40, 50);
    const slow = evenSteps(40, 200, fast.at(-1)! + 200);
    expect(estimateMsLeft([...fast, ...slow], 180)).toBeCloseTo(100 * 200);
  });

  it('averages over the evaluations that fall between some steps', () => {
    // 100 ms steps with a 1 s evaluation after every 10th: the last 20 intervals hold 2 of them, 200 ms a step on average.
    const times: number[] = [];
    let t = 0;
    for (let step = 1; step <= 100; step++) {
      t += 100;
      times.push(t);
      if (step % 10 === 0) t += 1000;
    }
    expect(estimateMsLeft(times, 200)).toBe(100 * 200);
  });

  it('estimates a run of a few long rounds once two rounds are done', () => {
    expect(intervalsNeeded(6)).toBe(1);
    expect(estimateMsLeft([20_000], 6)).toBeNull();
    expect(estimateMsLeft([20_000, 50_000], 6)).toBe(4 * 30_000);
  });

  it('has nothing to estimate once the last step is done', () => {
    expect(estimateMsLeft(evenSteps(60, 100), 60)).toBeNull();
  });
});

describe('timeLeftWords and durationWords: times rounded to what they can claim', () => {
  it('rounds an estimate coarser as it grows', () => {
    expect(timeLeftWords(4_000)).toBe('a few seconds left');
    expect(timeLeftWords(43_000)).toBe('about 45 s left');
    expect(timeLeftWords(58_000)).toBe('about 1 min left');
    expect(timeLeftWords(125_000)).toBe('about 2 min left');
    expect(timeLeftWords(150_000)).toBe('about 2 min 30 s left');
    expect(timeLeftWords(14 * 60_000 + 20_000)).toBe('about 14 min left');
    expect(timeLeftWords(80 * 60_000)).toBe('about 1 h 20 min left');
    expect(timeLeftWords(2 * 3_600_000 + 60_000)).toBe('about 2 h left');
  });

  it('gives a measured duration in tenths of a second, then whole seconds', () => {
    expect(durationWords(4_240)).toBe('4.2 s');
    expect(durationWords(27_400)).toBe('27 s');
    expect(durationWords(87_000)).toBe('1 min 27 s');
    expect(durationWords(120_200)).toBe('2 min');
  });
});

describe('RunClock: training time, pauses left out', () => {
  it('stops while paused and goes on after Resume', () => {
    const clock = new RunClock();
    clock.start(1000);
    expect(clock.read(1500)).toBe(500);
    clock.halt(2000); // paused
    expect(clock.read(9000)).toBe(1000); // the reader stepped away: nothing counts
    clock.start(10_000); // resumed
    expect(clock.read(10_250)).toBe(1250);
  });

  it('counts the step that finishes after Pause, up to its log line', () => {
    const clock = new RunClock();
    clock.start(0);
    clock.halt(400); // Pause asked for while a step runs
    expect(clock.read(700, true)).toBe(700); // that step's log line
    expect(clock.read(5000)).toBe(700);
    clock.halt(6000); // stopped while paused: no paused time added
    expect(clock.read(7000)).toBe(700);
  });

  it('ends with the run: the time of a finished run stays as it was', () => {
    const clock = new RunClock();
    clock.start(100);
    clock.halt(3100); // done
    expect(clock.read(60_000)).toBe(3000);
  });
});
