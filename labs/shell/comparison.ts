/**
 * How a lab's comparison runs its presets: the settings of each run, and the one line that says, before the click,
 * what the click will run and for how long. Pure, so tests/unit/labs/comparison.test.ts checks it without a page.
 */
import { ownEntry, presetSettings, type PresetTable, type Schema } from '@/lib/train/config';
import type { LabComparison } from './labDefinition';
import type { Settings } from '@/ui/settings';
import { formatCount } from './format';

/** The form as the reader left it: the preset it was filled from and its values now. */
export interface ComparisonForm {
  preset: string;
  settings: Settings;
}

/**
 * The length every run of the comparison takes, so that only what the presets change differs between them: the
 * form's max_steps where the reader set it (it differs from its own preset's), else the longest of the compared
 * presets' own (the chapter's runs are at least that long: agent's train_on_observations needs its 200 steps).
 */
export function comparisonLength(schema: Schema, presets: PresetTable, comparison: LabComparison, form: ComparisonForm): number {
  const own = (name: string) => Number(presetSettings(schema, ownEntry(presets, name)).max_steps);
  const formPreset = ownEntry(presets, form.preset);
  const chosen = Number(form.settings.max_steps);
  if (formPreset && Number.isFinite(chosen) && chosen !== own(form.preset)) return chosen;
  return Math.max(...comparison.presets.map(own));
}

/** The settings of the comparison's run of `preset`: the preset's own, on the form's seed and the comparison's length. */
export function comparisonSettings(schema: Schema, presets: PresetTable, comparison: LabComparison, form: ComparisonForm, preset: string): Settings {
  const entry = ownEntry(presets, preset);
  // A comparison naming a preset the lab does not offer is a definition error: say which, where it is written.
  if (!entry) throw new Error(`the comparison "${comparison.label.slice(0, 40)}…" names the preset "${preset}", which this lab does not offer`);
  return { ...presetSettings(schema, entry), seed: form.settings.seed, max_steps: comparisonLength(schema, presets, comparison, form) };
}

/** "Runs default, then sft_only, 6 rounds each on seed 0." What the comparison's button will start, before it is pressed. */
export function comparisonPlan(schema: Schema, presets: PresetTable, comparison: LabComparison, form: ComparisonForm, stepWord = 'step'): string {
  const steps = comparisonLength(schema, presets, comparison, form);
  const names = comparison.presets;
  const order = `${names.slice(0, -1).join(', ')}, then ${names.at(-1)}`;
  return `Runs ${order}, ${formatCount(steps)} ${stepWord}${steps === 1 ? '' : 's'} each on seed ${String(form.settings.seed)}.`;
}
