import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ppoPresets, type PpoConfig } from '@/lib/train/ppo-config';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';
import { TrainingRun, type Metrics } from '@/lib/train/run';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** A cheap config for the mechanics tests: 4 envs × 8 steps, 2 minibatches. */
const small: Partial<PpoConfig> = { num_envs: 4, num_steps: 8, num_mini_batches: 2, num_ppo_epochs: 2, eval_episodes: 2 };
const withoutTiming = (m: Metrics) => Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('timing/')));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('PPO trainer: mechanics', () => {
  it('logs TRL/CleanRL metric names, all finite', async () => {
    const trainer = createPpoTrainer(small);
    const m = await trainer.trainStep();
    for (const key of ['loss/policy_avg', 'loss/value_avg', 'policy/entropy_avg', 'policy/approxkl_avg', 'policy/clipfrac_avg', 'val/clipfrac_avg',
      'episode/return_mean', 'episode/length_mean', 'episode/success_rate', 'global_step', 'timing/rollout_ms', 'timing/forward_backward_ms', 'timing/optimizer_ms', 'timing/step_ms']) {
      expect(Number.isFinite(m[key]), key).toBe(true);
    }
    expect(m['policy/entropy_avg']).toBeGreaterThan(1.3); // near-uniform start: ln 4 ≈ 1.386
    expect(Object.keys(await trainer.evaluate()).sort()).toEqual(['eval/length', 'eval/return', 'eval/success_rate']);
    trainer.dispose();
  });

  it('records the rollout with the policy that sampled it, and bootstraps truncated episodes with γ·V(s_final)', async () => {
    // With a 1-step time limit every step is truncated: each starts at S = (4, 0), and its reward must be
    // −0.01 + γ·V(next cell) under the pre-update weights, read here from policyMap().
    const trainer = createPpoTrainer({ ...small, max_episode_steps: 1 });
    const before = await trainer.policyMap();
    const m = await trainer.trainStep();
    const r = trainer.lastRollout!;
    const S = 4 * 5; // cell index of (4, 0)
    const next = [15, 21, 20, 20]; // up → (3, 0), right → (4, 1), down and left stay at S
    for (let i = 0; i < 32; i++) {
      expect(r.obs[i * 25 + S]).toBe(1);
      expect(r.values[i]).toBeCloseTo(before.values[S], 5);
      expect(r.logprobs[i]).toBeCloseTo(Math.log(before.probs[S][r.actions[i]]), 5);
      expect(r.rewards[i]).toBeCloseTo(-0.01 + 0.99 * before.values[next[r.actions[i]]], 5);
      expect(r.starts[i]).toBe(1);
    }
    expect([...r.nextStart]).toEqual([1, 1, 1, 1]);
    expect(r.truncations).toBe(32);
    expect(m).toMatchObject({ 'episode/count': 32, 'episode/truncated': 32, 'episode/length_mean': 1, 'episode/success_rate': 0 });
    trainer.dispose();
  });

  it('leaks no tensors across steps, evaluations and policy maps, and frees everything on dispose', async () => {
    const start = tf.memory().numTensors;
    const trainer = createPpoTrainer(small);
    await trainer.trainStep(); // burn-in: Adam creates its moment slots
    await trainer.evaluate();
    await trainer.policyMap();
    const n = tf.memory().numTensors;
    for (let i = 0; i < 2; i++) {
      await trainer.trainStep();
      await trainer.evaluate();
      await trainer.policyMap();
      expect(tf.memory().numTensors).toBe(n);
    }
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(start);
  });

  it('is deterministic given the seed (timings aside), and the seed matters', async () => {
    const history = async (seed: number) => {
      const trainer = createPpoTrainer({ ...small, seed });
      const out: Metrics[] = [];
      for (let i = 0; i < 3; i++) out.push(withoutTiming(await trainer.trainStep()));
      out.push(await trainer.evaluate());
      trainer.dispose();
      return out;
    };
    const a = await history(5);
    expect(await history(5)).toEqual(a);
    expect(await history(6)).not.toEqual(a);
  });

  it('runs CartPole behind the same interface', async () => {
    const trainer = createPpoTrainer({ ...small, env_id: 'cartpole', num_steps: 16, max_episode_steps: 10 });
    expect(trainer.model.config).toMatchObject({ obs_dim: 4, n_actions: 2 });
    const m = await trainer.trainStep();
    expect(m['episode/count']).toBeGreaterThanOrEqual(4); // 16 steps per env: each ends at least one 10-step episode
    const e = await trainer.evaluate();
    expect(e['eval/return']).toBe(e['eval/length']); // +1 per step
    await expect(trainer.policyMap()).rejects.toThrow(/needs the grid world/);
    trainer.dispose();
  });
});

describe('PPO trainer: behaviour', () => {
  it('learns the default grid world under TrainingRun: greedy return rises from the random policy’s to the optimum', async () => {
    const trainer = createPpoTrainer({});
    const run = new TrainingRun(trainer, {
      maxSteps: 16,
      evalEvery: 2,
      onLog: (line) => {
        if (line.kind === 'eval' && line.metrics['eval/success_rate'] === 1) run.stop();
      },
    });
    const started = performance.now();
    expect(await run.run()).toBe('stopped');
    const seconds = (performance.now() - started) / 1000;
    const evals = run.history.filter((l) => l.kind === 'eval');
    expect(evals[0].metrics['eval/return']).toBeLessThan(0); // the untrained greedy policy hides or hits lava
    expect(evals.at(-1)!.metrics['eval/success_rate']).toBe(1);
    expect(evals.at(-1)!.metrics['eval/return']).toBeGreaterThan(0.9); // optimum 0.95: 6 steps round the lava
    console.info(`PPO solved the grid world in ${run.stepsDone} steps, ${seconds.toFixed(1)} s`);
    trainer.dispose();
  });

  it('without clipping the policy collapses where the clipped update does not; too high a learning rate moves it much further', async () => {
    // Measured over 2 updates, seeds 0–5: no_clipping's KL is 64–180× aggressive_clipped's (same lr and epochs, clip
    // on) and its entropy 0.65–1.0 lower; lr_too_high's KL is 99–150× default's, its clipfrac 7–14×.
    const stats = async (overrides: Partial<PpoConfig>) => {
      const trainer = createPpoTrainer(overrides);
      const rows: Metrics[] = [];
      for (let i = 0; i < 2; i++) rows.push(await trainer.trainStep());
      trainer.dispose();
      const avg = (k: string) => mean(rows.map((m) => m[k]));
      return { kl: avg('policy/approxkl_avg'), clipfrac: avg('policy/clipfrac_avg'), entropy: rows.at(-1)!['policy/entropy_avg'] };
    };
    const unclipped = await stats(ppoPresets.no_clipping.overrides);
    const clipped = await stats(ppoPresets.aggressive_clipped.overrides);
    expect(unclipped.kl).toBeGreaterThan(20 * clipped.kl);
    expect(unclipped.clipfrac).toBe(0); // ε = 10⁶: nothing is ever clipped
    expect(unclipped.entropy).toBeLessThan(clipped.entropy - 0.5); // collapsing onto one action per cell (ln 4 ≈ 1.39)

    const base = await stats(ppoPresets.default.overrides);
    const hot = await stats(ppoPresets.lr_too_high.overrides);
    expect(hot.kl).toBeGreaterThan(20 * base.kl);
    expect(hot.clipfrac).toBeGreaterThan(3 * base.clipfrac);
    expect(hot.entropy).toBeLessThan(base.entropy);
  });
});
