/**
 * Real runs recorded by `npm run record:runs` (scripts/record-runs.ts): the GRPO lab's default run, which the home
 * page draws, and how long each lab's default run takes, which the lab cards state. Both files are checked against
 * these schemas where they are read (at build time) and in tests, so a hand edit that breaks them fails the build.
 */
import { z } from 'zod';
import homeRunJson from './home-run.json';
import labTimesJson from './lab-times.json';

const machine = z.object({ cpu: z.string(), cores: z.number().int().positive(), node: z.string(), platform: z.string(), tfjs: z.string() }).strict();
const seconds = z.object({ setup: z.number().nonnegative(), train: z.number().nonnegative(), evaluate: z.number().nonnegative() }).strict();

const logLine = z
  .object({
    step: z.number().int().nonnegative(),
    kind: z.enum(['train', 'eval']),
    // JSON has no NaN: a NaN metric would come back as null.
    metrics: z.record(z.string(), z.number().nullable()),
  })
  .strict();

export const homeRunSchema = z
  .object({
    recorded: z.iso.datetime(),
    command: z.string(),
    lab: z.string(),
    trainer: z.literal('grpo'),
    preset: z.string(),
    seed: z.number().int(),
    backend: z.literal('wasm'),
    machine,
    config: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
    history: z.array(logLine).min(2),
  })
  .strict()
  .refine((r) => r.history.filter((l) => l.kind === 'train').length === r.config.max_steps, { error: 'the history must hold every training step' })
  .refine((r) => r.history.some((l) => l.kind === 'eval' && l.step === 0) && r.history.some((l) => l.kind === 'eval' && l.step === r.config.max_steps), {
    error: 'the history must hold the evaluations before the first step and after the last',
  });

export const labTimeSchema = z
  .object({
    trainer: z.string(),
    preset: z.string(),
    seed: z.number().int(),
    max_steps: z.number().int().positive(),
    /** Median CPU milliseconds of one training step. */
    ms_per_step: z.number().positive(),
    /** CPU seconds of the whole default run, by part (one thread: what it costs one core). */
    cpu_seconds: seconds,
    /** Wall-clock seconds on the recording machine, which may have been busy. */
    wall_seconds: seconds,
  })
  .strict();

/** A lab's default run in Chromium, Train to "finished" as a reader sees it (npm run record:browser-times). */
export const browserTimeSchema = z
  .object({
    preset: z.string(),
    max_steps: z.number().int().positive(),
    /** The backend the lab chose for the run ('auto'), as its status line named it. */
    backend: z.string(),
    /** The run's training time from the lab's own clock: Train to the last step, the model's build and every evaluation included. */
    seconds: z.number().positive(),
  })
  .strict();

export const browserTimesSchema = z
  .object({
    recorded: z.iso.datetime(),
    command: z.string(),
    /** The browser's name and version. */
    browser: z.string(),
    machine: z.object({ cpu: z.string(), cores: z.number().int().positive(), platform: z.string() }).strict(),
    /** The 1-minute load average per core when the recording started: near 0 on an idle machine. */
    load_per_core: z.number().nonnegative(),
    labs: z.record(z.string(), browserTimeSchema),
  })
  .strict();

export const labTimesSchema = z
  .object({
    recorded: z.iso.datetime(),
    command: z.string(),
    backend: z.literal('wasm'),
    machine,
    labs: z.record(z.string(), labTimeSchema),
    /** The same labs timed where learners run them; absent until recorded. */
    browser: browserTimesSchema.optional(),
  })
  .strict();

export type HomeRun = z.infer<typeof homeRunSchema>;
export type LabTime = z.infer<typeof labTimeSchema>;
export type LabTimes = z.infer<typeof labTimesSchema>;
export type BrowserTimes = z.infer<typeof browserTimesSchema>;

export const homeRun = (): HomeRun => homeRunSchema.parse(homeRunJson);
export const labTimes = (): LabTimes => labTimesSchema.parse(labTimesJson);

/** A lab's default run from start to finish, in CPU seconds of one core. */
export const totalSeconds = (t: LabTime) => t.cpu_seconds.setup + t.cpu_seconds.train + t.cpu_seconds.evaluate;
