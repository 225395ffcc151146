import { describe, expect, it } from 'vitest';
import { chooseBackend, parseProbeOptions, SWITCH_MARGIN, type BackendTiming } from '@/lib/tf/choice';

const timed = (backend: BackendTiming['backend'], msPerStep: number): BackendTiming => ({ backend, msPerStep, steps: 3 });

describe('chooseBackend', () => {
  it('switches to the fastest GPU backend when it beats the current one by the margin', () => {
    const choice = chooseBackend('wasm', [timed('webgpu', 40), timed('webgl', 60), timed('wasm', 120)]);
    expect(choice).toMatchObject({ backend: 'webgpu', switchTo: true });
    expect(choice.reason).toBe('Switched to webgpu: 40 ms/step against 120 ms/step on wasm, measured on this lab’s steps.');
  });

  it('stays when the GPU is slower, or faster by less than the margin', () => {
    expect(chooseBackend('wasm', [timed('webgpu', 300), timed('wasm', 120)])).toMatchObject({ backend: 'wasm', switchTo: false });
    expect(chooseBackend('wasm', [timed('webgpu', 120 * SWITCH_MARGIN + 1), timed('wasm', 120)]).switchTo).toBe(false);
    expect(chooseBackend('wasm', [timed('webgpu', 120 * SWITCH_MARGIN), timed('wasm', 120)]).switchTo).toBe(true);
    expect(chooseBackend('wasm', [timed('webgl', 300), timed('wasm', 120)]).reason).toBe('Kept wasm: 120 ms/step, against 300 ms/step on webgl.');
  });

  it('stays, saying why, when nothing else could be timed or the current backend was not', () => {
    const none = chooseBackend('wasm', [{ backend: 'webgpu', skipped: 'navigator.gpu is not available' }, { backend: 'webgl', skipped: 'software renderer' }]);
    expect(none).toEqual({ backend: 'wasm', switchTo: false, reason: 'Kept wasm: webgpu and webgl could not be timed here.' });
    expect(chooseBackend('wasm', [timed('webgpu', 10)])).toMatchObject({ backend: 'wasm', switchTo: false });
    expect(chooseBackend('wasm', [])).toMatchObject({ backend: 'wasm', switchTo: false });
  });

  it('ignores timings that are not positive finite numbers', () => {
    expect(chooseBackend('wasm', [timed('webgpu', Number.NaN), timed('webgl', 0), timed('wasm', 100)]).switchTo).toBe(false);
  });

  it('does not move a run that has ended, but says what was faster', () => {
    expect(chooseBackend('wasm', [timed('webgpu', 40), timed('wasm', 120)], SWITCH_MARGIN, true)).toEqual({
      backend: 'wasm',
      switchTo: false,
      reason: 'Faster on webgpu: 40 ms/step against 120 ms/step on wasm, but the run ended before the timing did.',
    });
  });

  it('honours a developer margin', () => {
    expect(chooseBackend('wasm', [timed('webgpu', 300), timed('wasm', 100)], 5)).toMatchObject({ backend: 'webgpu', switchTo: true });
  });
});

describe('parseProbeOptions', () => {
  it('reads the developer knobs and ignores anything malformed', () => {
    expect(parseProbeOptions(null)).toEqual({ software: false, margin: SWITCH_MARGIN });
    expect(parseProbeOptions('{"software":true,"margin":50}')).toEqual({ software: true, margin: 50 });
    expect(parseProbeOptions('{"software":"yes","margin":-1}')).toEqual({ software: false, margin: SWITCH_MARGIN });
    expect(parseProbeOptions('{"margin":1e9}').margin).toBe(SWITCH_MARGIN);
    expect(parseProbeOptions('not json')).toEqual({ software: false, margin: SWITCH_MARGIN });
    expect(parseProbeOptions('[]')).toEqual({ software: false, margin: SWITCH_MARGIN });
    expect(parseProbeOptions('x'.repeat(1000))).toEqual({ software: false, margin: SWITCH_MARGIN });
  });
});
