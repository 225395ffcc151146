/**
 * Saved runs: a run's settings and metric history, kept to overlay on the charts, exported as JSON and
 * imported back. An imported file is untrusted: it is validated in full before anything changes.
 */
import { z } from 'zod';
import { configProblem, quoteInput, resolve, type Schema } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import type { Settings } from '@/ui/settings';

export const MAX_RUNS = 4;
const FORMAT = 'agentic-rl-lab/run';
/** A run export is at most this big (40,000 steps of the GRPO lab is ~5 MB); checked before the file is read. */
export const MAX_FILE_BYTES = 5_000_000;

export interface SavedRun {
  id: string;
  trainer: string;
  settings: Settings;
  history: LogLine[];
  /** The preset the run started from, when it matters for its label (a comparison). */
  preset?: string;
}

export function exportRun(run: SavedRun): string {
  return JSON.stringify({ format: FORMAT, version: 1, trainer: run.trainer, preset: run.preset, settings: run.settings, history: run.history }, null, 1);
}

const fileSchema = z.object({
  format: z.literal(FORMAT, { error: `not a run file (expected "format": "${FORMAT}")` }),
  version: z.literal(1, { error: 'unsupported run file version (this site reads version 1)' }),
  trainer: z.string(),
  preset: z.string().max(64).optional(),
  settings: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  history: z
    .array(
      z.object({
        step: z.number().int().min(0),
        kind: z.enum(['train', 'eval']),
        // JSON has no NaN: a diverged run's NaN metrics come back as null.
        metrics: z.record(z.string(), z.number().nullable()).transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v ?? NaN]))),
      }),
    )
    .max(100_000),
});

/** Parses an exported run for `trainer`; throws an Error with a reader-facing message if anything is off. */
export function importRun(text: string, trainer: string, schema: Schema): SavedRun {
  if (text.length > MAX_FILE_BYTES) throw new Error('the file is too large to be a run export');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the file is not valid JSON');
  }
  // Own keys as written in the file: a "__proto__" or "toString" setting is refused by name, not dropped on the way.
  const rawSettings = (json as { settings?: unknown } | null)?.settings;
  if (rawSettings && typeof rawSettings === 'object') {
    const unknown = Object.keys(rawSettings).find((key) => !Object.hasOwn(schema, key));
    if (unknown !== undefined) throw new Error(`its settings name an unknown field ${quoteInput(unknown)}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  if (parsed.data.trainer !== trainer) throw new Error(`this is a ${quoteInput(parsed.data.trainer)} run; this lab trains ${trainer}`);
  try {
    resolve(schema, parsed.data.settings);
  } catch (error) {
    throw new Error(`its settings are not valid here: ${configProblem(error)}`);
  }
  return { id: `import-${Date.now()}`, trainer, settings: parsed.data.settings, history: parsed.data.history, preset: parsed.data.preset };
}
