/**
 * The self-improvement lab's presets, run once each with seed 0 on wasm by `npm run record:self-improve`
 * (scripts/record-self-improve.ts): the runs the chapter's self-improvement section reads its numbers from (the
 * default and its two controls, and full_schedule: the default's schedule with round 0 trained in the run). Checked
 * against this schema where it is read, and against the presets in tests/content/self-improve-numbers.test.ts.
 */
import { z } from 'zod';

export const SELF_IMPROVE_PRESETS = ['default', 'majority', 'sft_only', 'full_schedule'] as const;

const logLine = z
  .object({ step: z.number().int().nonnegative(), kind: z.enum(['train', 'eval']), metrics: z.record(z.string(), z.number().nullable()) })
  .strict();
const run = z
  .object({ config: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])), cpu_seconds: z.number().nonnegative(), history: z.array(logLine).min(2) })
  .strict()
  .refine((r) => r.history.filter((l) => l.kind === 'train').length === r.config.max_steps, { error: 'the history must hold every round' });

export const selfImproveRunsSchema = z
  .object({
    recorded: z.iso.datetime(),
    command: z.string(),
    backend: z.literal('wasm'),
    runs: z.object({ default: run, majority: run, sft_only: run, full_schedule: run }).strict(),
  })
  .strict();

export type SelfImproveRuns = z.infer<typeof selfImproveRunsSchema>;
