// The widgets' compute modules on the async numeric face (in-process here, as at build time), against hand-computed values.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeAdvantages } from '@/app/_components/widgets/advantages';
import { clipAt, clipSnapshot } from '@/app/_components/widgets/clip';
import { dpoAt, dpoSnapshot, LOSS_TYPES } from '@/app/_components/widgets/dpo-loss';
import { computeGae } from '@/app/_components/widgets/gae';
import { directFace as face } from '@/app/_components/widgets/numeric-face';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const close = (xs: number[], want: number[], digits = 3) => want.forEach((w, i) => expect(xs[i]).toBeCloseTo(w, digits));

describe('widget computations on the async face', () => {
  it('advantages: 1, 0, 0, 1 has mean 0.5 and unbiased std 0.577, so ±0.5 / (0.577 + 1e-4) = ±0.866', async () => {
    const table = await computeAdvantages(face, [[1, 0, 0, 1]]);
    close(table.advantages.group, [0.866, -0.866, -0.866, 0.866]);
    close(table.advantages.batch, [0.866, -0.866, -0.866, 0.866]);
    close(table.advantages.none, [0.5, -0.5, -0.5, 0.5]);
    // Two groups: 'batch' divides by the std of all four rewards (0.5), 'group' by each group's own (0.707; 0).
    const two = await computeAdvantages(face, [[1, 0], [1, 1]]);
    close(two.advantages.batch, [1, -1, 0, 0]);
    close(two.advantages.group, [0.707, -0.707, 0, 0]);
  });

  it('GAE: the chapter example, γ = 0.9, λ = 0.5, a new episode at t = 3', async () => {
    const table = await computeGae(face, {
      rewards: [0, 0, 1, 0], values: [0.5, 0.6, 0.8, 0.3], dones: [0, 0, 0, 1], nextValue: 0.4, nextDone: false, gamma: 0.9, lam: 0.5,
    });
    // δ_3 = 0 + 0.9·0.4 − 0.3 = 0.06; δ_2 = 1 − 0.8 = 0.2 (episode ends); δ_1 = 0.9·0.8 − 0.6 = 0.12, A_1 = 0.12 + 0.45·0.2.
    close(table.rows.map((r) => r.advantage).slice(1), [0.21, 0.2, 0.06]);
    close(table.rows.map((r) => r.ret).slice(1), [0.81, 1.0, 0.36]);
  });

  it('clip at r = 1.4, ε = 0.2: A = +1 is clipped at 1.2 with no gradient, A = −1 is not', async () => {
    const [pos, neg] = await clipAt(face, { epsilon: 0.2, epsilonHigh: 0.2 }, 1.4);
    expect(pos.objective).toBeCloseTo(1.2, 5);
    expect(pos.grad).toBe(0);
    expect(neg.objective).toBeCloseTo(-1.4, 5);
    expect(neg.grad).toBeCloseTo(1.4, 5); // ∂loss/∂log r = −r·A
    const snap = await clipSnapshot(face, { epsilon: 0.2, epsilonHigh: 0.3 }, 1.4);
    expect(snap.curves.map((c) => c.flat)).toEqual([[[1.3, 2]], [[0, 0.8]]]);
    // r = 0 is sampled at 1e-4 (log 0 is not finite).
    expect(snap.curves[0].objective.map((p) => p.y)).toEqual([0, 0.8, 1.3, 1.3].map((y) => expect.closeTo(y, 3)));
  });

  it('DPO at β = 0.1, z = 2: sigmoid −log σ(0.2), hinge 1 − βz, IPO (z − 5)² with weight 6', async () => {
    const sig = (x: number) => 1 / (1 + Math.exp(-x));
    const points = await dpoAt(face, { beta: 0.1, labelSmoothing: 0 }, 2);
    const at = Object.fromEntries(points.map((p) => [p.type, p]));
    expect(at.sigmoid.loss).toBeCloseTo(-Math.log(sig(0.2)), 5);
    expect(at.sigmoid.weight).toBeCloseTo(0.1 * sig(-0.2), 5);
    expect(at.sigmoid.margin).toBeCloseTo(0.2, 5);
    expect(at.hinge.loss).toBeCloseTo(0.8, 5);
    expect(at.ipo.loss).toBeCloseTo(9, 4);
    expect(at.ipo.weight).toBeCloseTo(6, 4);
    const snap = await dpoSnapshot(face, { beta: 0.5, labelSmoothing: 0 }, 2);
    expect(snap.curves.map((c) => c.type)).toEqual([...LOSS_TYPES]);
    // The hinge's knots: −10, its kink at 1/β = 2, and 10, where the loss is 1 + 5 = 6, 0 and 0.
    const hinge = snap.curves.find((c) => c.type === 'hinge')!;
    expect(hinge.loss.map((k) => [k.z, k.y])).toEqual([[-10, expect.closeTo(6, 5)], [2, expect.closeTo(0, 5)], [10, 0]]);
  });
});
