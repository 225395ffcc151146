// Not a test (issue 50): one trainer's steps under tf.profile, kernel time per kind, in whatever runtime imports it
// (kernel-profile.ts in Node, profile-worker.ts in a Chromium worker), so the two can be compared kernel by kernel.
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import type { TrainerName } from '@/lib/spec/registry';

export interface StepProfile {
  plainStepMs: number;
  profiledStepMs: number;
  kernelsPerStep: number;
  kernelMsPerStep: number;
  kinds: { name: string; perStep: number; msPerStep: number; usEach: number }[];
  shapes: string[];
}

export async function profileSteps(name: string, overrides: Record<string, unknown>, steps: number, readCheckpoint: (file: string) => Promise<Uint8Array>, shapesOf: string[] = []): Promise<StepProfile> {
  await selectBackend({ requested: 'wasm' });
  const { trainer } = await startTrainer(name as TrainerName, { overrides, readCheckpoint });
  for (let i = 0; i < 5; i++) await trainer.trainStep();
  const t1 = performance.now();
  for (let i = 0; i < steps; i++) await trainer.trainStep();
  const plainStepMs = (performance.now() - t1) / steps;
  const byKind = new Map<string, { n: number; ms: number }>();
  const shapes: string[] = [];
  let wall = 0;
  let kernels = 0;
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    const info = await tf.profile(async () => {
      await trainer.trainStep();
    });
    wall += performance.now() - t0;
    for (const k of info.kernels) {
      // Scopes (custom gradients, ops) nest kernels: only registered kernels are counted.
      if (tf.getKernel(k.name, tf.getBackend()) == null) continue;
      const ms = (await k.kernelTimeMs) as number;
      const e = byKind.get(k.name) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += ms;
      byKind.set(k.name, e);
      kernels++;
      if (i === 0 && shapesOf.includes(k.name)) shapes.push(`${k.name} in ${JSON.stringify(k.inputShapes)} out ${JSON.stringify(k.outputShapes)} ${(ms * 1000).toFixed(0)} µs`);
    }
  }
  trainer.dispose();
  const kinds = [...byKind.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([kind, e]) => ({ name: kind, perStep: e.n / steps, msPerStep: e.ms / steps, usEach: (e.ms / e.n) * 1000 }));
  return { plainStepMs, profiledStepMs: wall / steps, kernelsPerStep: kernels / steps, kernelMsPerStep: kinds.reduce((s, k) => s + k.msPerStep, 0), kinds, shapes };
}

export function printProfile(label: string, p: StepProfile): string {
  const lines = [`${label}: plain step ${p.plainStepMs.toFixed(1)} ms; profiled ${p.profiledStepMs.toFixed(1)} ms; ${p.kernelsPerStep.toFixed(0)} kernels/step; kernel time ${p.kernelMsPerStep.toFixed(1)} ms/step`];
  for (const k of p.kinds.slice(0, 30)) lines.push(`${k.name.padEnd(28)} ${k.perStep.toFixed(1).padStart(7)} /step ${k.msPerStep.toFixed(2).padStart(8)} ms/step ${k.usEach.toFixed(1).padStart(8)} µs each`);
  return [...p.shapes.map((s) => `  ${s}`), ...lines].join('\n');
}
