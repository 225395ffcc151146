/**
 * The LoRA lab's claims, each a seeded run on wasm from the shipped addition model fine-tuned on subtraction, as
 * `npm run train -- sft --preset <name> --backend wasm` runs it (evaluating every 100 steps here, to save time).
 * The figures chapter 2 quotes come from these runs.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import type { Metrics } from '@/lib/train/run';
import { TrainingRun } from '@/lib/train/run';
import { sftPresets } from '@/lib/train/sft-config';
import { startTrainer } from '@/lib/spec/start';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));

/** Held-out metrics at steps 0, 100, 200 and 300 of a preset's run. */
async function evals(preset: keyof typeof sftPresets): Promise<Record<number, Metrics>> {
  const { trainer } = await startTrainer('sft', { overrides: { ...sftPresets[preset].overrides, eval_steps: 100 }, readCheckpoint });
  const run = new TrainingRun(trainer, { maxSteps: trainer.config.max_steps, evalEvery: 100 });
  expect(await run.run(), run.error).toBe('done');
  trainer.dispose();
  return Object.fromEntries(run.history.filter((l) => l.kind === 'eval').map((l) => [l.step, l.metrics]));
}

describe('LoRA lab claims (seed 0, wasm)', () => {
  const runs: Partial<Record<keyof typeof sftPresets, Record<number, Metrics>>> = {};
  const at = (preset: keyof typeof sftPresets, step: number) => runs[preset]![step];

  it('runs every preset: the addition model starts at 93.5% on addition and ~0 on subtraction', async () => {
    for (const preset of ['full_ft', 'lora_r1', 'lora_r4', 'lora_r16', 'lora_r16_rslora', 'full_ft_replay'] as const) runs[preset] = await evals(preset);
    expect(at('full_ft', 0)['eval/old_task_accuracy']).toBeCloseTo(0.935, 3);
    expect(at('full_ft', 0)['eval/accuracy']).toBeLessThan(0.05);
  }, 600_000);

  it('LoRA at rank 4 ends within 10 points of full fine-tuning with 15% of its trainable parameters', () => {
    expect(at('lora_r4', 0).trainable_params).toBe(4096);
    expect(at('full_ft', 0).trainable_params).toBe(27606);
    expect(at('lora_r4', 0).optimizer_state_bytes).toBe(8 * 4096);
    expect(at('full_ft', 300)['eval/accuracy']).toBeGreaterThan(0.9);
    expect(at('full_ft', 300)['eval/accuracy'] - at('lora_r4', 300)['eval/accuracy']).toBeLessThan(0.1);
    expect(at('lora_r1', 300)['eval/accuracy']).toBeLessThan(at('lora_r4', 300)['eval/accuracy'] - 0.3); // rank 1 is too little here
  });

  it('here LoRA forgets the old task as completely as full fine-tuning (the claim that it forgets less fails at this scale)', () => {
    for (const preset of ['full_ft', 'lora_r1', 'lora_r4', 'lora_r16', 'lora_r16_rslora'] as const) expect(at(preset, 100)['eval/old_task_accuracy'], preset).toBeLessThan(0.06);
  });

  it('what keeps the old task is data: replaying a quarter of addition keeps most of it while subtraction is learned', () => {
    expect(at('full_ft_replay', 300)['eval/accuracy']).toBeGreaterThan(0.85);
    expect(at('full_ft_replay', 300)['eval/old_task_accuracy']).toBeGreaterThan(0.6);
  });

  it('with α fixed, rank 16 (α/r = 0.5) does not learn more slowly than rank 4 (α/r = 2); rsLoRA (α/√r = 2) learns faster still', () => {
    const step100 = (preset: keyof typeof sftPresets) => at(preset, 100)['eval/accuracy'];
    expect(step100('lora_r16')).toBeGreaterThanOrEqual(step100('lora_r4'));
    expect(step100('lora_r16_rslora')).toBeGreaterThan(step100('lora_r16'));
  });

  it('chapter 2 prints exactly these runs’ figures', () => {
    const chapter = fs.readFileSync('content/chapters/02-sft-lora.mdx', 'utf8');
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    for (const preset of ['full_ft', 'lora_r1', 'lora_r4', 'lora_r16', 'lora_r16_rslora', 'full_ft_replay'] as const) {
      const row = new RegExp(`^\\| \`${preset}\` \\|.*$`, 'm').exec(chapter)?.[0];
      expect(row, preset).toBeDefined();
      const cells = row!.split('|').map((c) => c.trim()).filter(Boolean);
      expect(cells[1], `${preset} trainable`).toBe(at(preset, 0).trainable_params.toLocaleString('en-US'));
      expect(cells[2], `${preset} Adam state`).toBe(`${Math.round(at(preset, 0).optimizer_state_bytes / 1024)} KiB`);
      expect(cells.slice(3), preset).toEqual([pct(at(preset, 100)['eval/accuracy']), pct(at(preset, 300)['eval/accuracy']), pct(at(preset, 300)['eval/old_task_accuracy'])]);
    }
  });
});
