// The worker RPC: the page's client (numeric-client.ts) against the worker's answer() (numeric-face.ts), with a
// fake Worker that delivers messages asynchronously as a real one does.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNumericClient, NumericWorkerError } from '@/app/_components/widgets/numeric-client';
import { answer, directFace } from '@/app/_components/widgets/numeric-face';
import type { FromNumeric, ToNumeric } from '@/app/_components/widgets/numeric-protocol';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

class FakeWorker {
  onmessage: ((event: { data: FromNumeric }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  posted: ToNumeric[] = [];
  postMessage(request: ToNumeric) {
    this.posted.push(request);
    void answer(request).then((data) => this.terminated || this.onmessage?.({ data }));
  }
  terminate() {
    this.terminated = true;
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault() {} });
  }
}

function client() {
  const workers: FakeWorker[] = [];
  const face = createNumericClient(() => {
    workers.push(new FakeWorker());
    return workers.at(-1) as unknown as Worker;
  });
  return { face, workers };
}

const rewards = { rewards: [1, 0, 0, 1], numGenerations: 4, scaleRewards: 'none' as const };

describe('the numeric worker client', () => {
  it('starts no worker until the first call, then one for all calls, each answer matched to its call by id', async () => {
    const { face, workers } = client();
    expect(workers).toHaveLength(0);
    const [a, g] = await Promise.all([
      face.grpoAdvantages(rewards),
      face.gae({ rewards: [1, 1], values: [0, 0], gamma: 0.5, lam: 1 }),
    ]);
    expect(a.advantages).toEqual([0.5, -0.5, -0.5, 0.5]);
    // A_1 = 1, A_0 = 1 + 0.5·1 = 1.5 (no value, no terminal bootstrap).
    expect(g.advantages).toEqual([1.5, 1]);
    expect(await face.grpoAdvantages(rewards)).toEqual(await directFace.grpoAdvantages(rewards));
    expect(workers).toHaveLength(1);
    expect(workers[0].posted.map((m) => m.id)).toEqual([0, 1, 2]);
  });

  it('rejects a call the core refuses with its message, and keeps answering the others', async () => {
    const { face } = client();
    const bad = face.grpoAdvantages({ rewards: [1, 0, 1], numGenerations: 2 });
    await expect(bad).rejects.toThrow('grpoAdvantages: 3 rows are not divisible by numGenerations = 2');
    await expect(bad).rejects.not.toBeInstanceOf(NumericWorkerError);
    expect((await face.grpoAdvantages(rewards)).advantages).toEqual([0.5, -0.5, -0.5, 0.5]);
  });

  it('fails pending calls when the worker dies, and starts a fresh one on the next call', async () => {
    const { face, workers } = client();
    const first = face.grpoAdvantages(rewards);
    workers[0].crash('NetworkError: importScripts failed');
    await expect(first).rejects.toThrow('NetworkError: importScripts failed');
    await expect(first).rejects.toBeInstanceOf(NumericWorkerError);
    expect(workers[0].terminated).toBe(true);
    expect((await face.grpoAdvantages(rewards)).advantages).toEqual([0.5, -0.5, -0.5, 0.5]);
    expect(workers).toHaveLength(2);
  });

  it('fails with NumericWorkerError where workers cannot be made at all', async () => {
    const face = createNumericClient(() => {
      throw new Error('Worker is not defined');
    });
    const call = face.dpoLoss({ chosenLogps: [0], rejectedLogps: [0], refChosenLogps: [0], refRejectedLogps: [0] });
    await expect(call).rejects.toThrow('Worker is not defined');
    await expect(call).rejects.toBeInstanceOf(NumericWorkerError);
  });
});

describe("the worker's answer()", () => {
  it('answers a malformed request with an error, never a throw', async () => {
    expect(await answer({ id: 7, fn: 'constructor', args: {} } as unknown as ToNumeric)).toEqual({ id: 7, error: 'no numeric function "constructor"' });
    expect(await answer(null as unknown as ToNumeric)).toEqual({ id: undefined, error: 'no numeric function undefined' });
    expect(await answer({ id: 1, fn: 'gae', args: null } as unknown as ToNumeric)).toMatchObject({ id: 1, error: expect.any(String) });
  });
});
