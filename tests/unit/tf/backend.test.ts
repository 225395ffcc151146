import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBackendName, selectBackend, type BackendName } from '@/lib/tf/backend';
import { isFallbackAdapter, shorten } from '@/lib/tf/runtime';
import { TimeoutError, withTimeout } from '@/lib/tf/timeout';

afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('selectBackend in Node', () => {
  it('selects cpu when asked', async () => {
    const sel = await selectBackend({ requested: 'cpu' });
    expect(sel).toMatchObject({ backend: 'cpu', fallbacks: [], runtime: 'node' });
    expect(tf.getBackend()).toBe('cpu');
  });

  it('selects wasm when asked, and it computes', async () => {
    const sel = await selectBackend({ requested: 'wasm' });
    expect(sel.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const y = tf.matMul(tf.tensor2d([[1, 2]]), tf.tensor2d([[3], [4]]));
    expect(await y.data()).toEqual(new Float32Array([11]));
    tf.dispose(y);
  });

  it('auto order skips webgpu and webgl with reasons and lands on wasm', async () => {
    const sel = await selectBackend();
    expect(sel.backend).toBe('wasm');
    expect(sel.fallbacks.map((f) => f.backend)).toEqual(['webgpu', 'webgl']);
    expect(sel.fallbacks[0].reason).toBe('navigator.gpu is not available');
    expect(sel.fallbacks[1].reason).toMatch(/WebGL needs a canvas/);
  });

  it.each(['webgpu', 'webgl'] as BackendName[])('requesting %s falls back with a recorded reason', async (b) => {
    const sel = await selectBackend({ requested: b, order: ['cpu'] });
    expect(sel.backend).toBe('cpu');
    expect(sel.fallbacks).toHaveLength(1);
    expect(sel.fallbacks[0].backend).toBe(b);
    expect(sel.fallbacks[0].reason.length).toBeGreaterThan(10);
  });

  it('skips a software-fallback WebGPU adapter unless explicitly requested', async () => {
    const gpu = { requestAdapter: async () => ({ info: { isFallbackAdapter: true } }) };
    const sel = await selectBackend({ gpu, order: ['webgpu', 'cpu'] });
    expect(sel.backend).toBe('cpu');
    expect(sel.fallbacks[0]).toEqual({ backend: 'webgpu', reason: expect.stringMatching(/software fallback/) });
    const none = await selectBackend({ gpu: { requestAdapter: async () => null }, order: ['webgpu', 'cpu'] });
    expect(none.fallbacks[0].reason).toMatch(/no adapter/);
  });

  it('a setBackend that hangs times out and the next backend is used', async () => {
    const hanging = (name: BackendName) => (name === 'wasm' ? new Promise<boolean>(() => {}) : tf.setBackend(name));
    const t0 = Date.now();
    const sel = await selectBackend({ requested: 'wasm', order: ['cpu'], setBackend: hanging, timeoutMs: 50 });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(sel.backend).toBe('cpu');
    expect(sel.fallbacks).toEqual([{ backend: 'wasm', reason: "setBackend('wasm') timed out after 50 ms" }]);
  });

  it('a setBackend that returns false is recorded', async () => {
    const failing = (name: BackendName) => (name === 'wasm' ? Promise.resolve(false) : tf.setBackend(name));
    const sel = await selectBackend({ requested: 'wasm', order: ['cpu'], setBackend: failing });
    expect(sel.fallbacks[0].reason).toMatch(/failed to initialise/);
  });

  it('throws, listing every reason, when nothing works', async () => {
    await expect(selectBackend({ order: ['webgl'] })).rejects.toThrow(/webgl: WebGL needs a canvas/);
  });
});

describe('helpers', () => {
  it('withTimeout rejects with TimeoutError, and passes values through', async () => {
    await expect(withTimeout(new Promise(() => {}), 10, 'thing')).rejects.toBeInstanceOf(TimeoutError);
    await expect(withTimeout(Promise.resolve(3), 10, 'thing')).resolves.toBe(3);
  });

  it('isFallbackAdapter reads new, old and oldest APIs', async () => {
    expect(await isFallbackAdapter({ info: { isFallbackAdapter: true } })).toBe(true);
    expect(await isFallbackAdapter({ isFallbackAdapter: true })).toBe(true);
    expect(await isFallbackAdapter({ requestAdapterInfo: async () => ({ isFallbackAdapter: true }) })).toBe(true);
    expect(await isFallbackAdapter({ info: { isFallbackAdapter: false } })).toBe(false);
  });

  it('parseBackendName', () => {
    expect(parseBackendName('WebGPU')).toBe('webgpu');
    expect(parseBackendName('auto')).toBe('auto');
    expect(parseBackendName('tpu')).toBeNull();
  });
});

describe('shorten', () => {
  it('cuts a long renderer string at a word and marks the cut, never mid-word', () => {
    const renderer = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver-5.0.0)';
    const short = shorten(renderer, 80);
    expect(short.length).toBeLessThanOrEqual(80);
    expect(short.endsWith('…')).toBe(true);
    expect(renderer.startsWith(short.slice(0, -1))).toBe(true);
    expect(short).not.toMatch(/SwiftSh…|SwiftSh$/);
    expect(shorten('SwiftShader', 80)).toBe('SwiftShader');
  });
});
