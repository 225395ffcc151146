/**
 * What an assignment does to a lab: where its settings start, which ones stay put, and which presets it refuses.
 * Pure functions, so the rules are unit-tested; useAssignment.ts reads the link and AssignmentBanner.tsx shows it.
 */
import { assignmentSettings, type SharedAssignment } from '@/lib/teach/assignment';
import { ownEntry, presetSettings, quoteInput, type FieldValue, type PresetTable, type Schema } from '@/lib/train/config';
import type { Settings } from '@/ui/settings';

const show = (value: FieldValue | undefined) => (typeof value === 'string' ? quoteInput(value) : String(value));

/**
 * The lab's starting settings under an assignment. A link that names no setting (the instructor's link) starts
 * from the assignment's settings; one that does (the same link after the lab wrote the student's changes into it)
 * keeps them. Either way every locked field gets the assignment's value, and a link that tried otherwise is told.
 * The assignment's settings are read as a run uses them (assignmentSettings: a field the file predates at what runs
 * then had), so an assignment written before a field existed starts the run it always described.
 */
export function applyAssignment(
  assignment: SharedAssignment,
  schema: Schema,
  presets: PresetTable,
  fromLink: { settings: Settings; preset: string; problems: string[] },
  query: string,
  home: string,
): { settings: Settings; preset: string; problems: string[] } {
  const keys = [...new URLSearchParams(query).keys()];
  const fresh = !keys.some((key) => key === 'preset' || Object.hasOwn(schema, key));
  const assigned = assignmentSettings(assignment);
  const settings = fresh ? { ...assigned } : { ...fromLink.settings };
  // A preset this lab does not offer leaves the menu at the lab's first; the settings are the assignment's all the same.
  const preset = fresh ? (ownEntry(presets, assignment.preset) ? assignment.preset : home) : fromLink.preset;
  const problems = [...fromLink.problems];
  for (const key of assignment.locked) {
    if (settings[key] === assigned[key]) continue;
    problems.push(`ignored ${key}=${show(settings[key])}: locked by the assignment at ${show(assigned[key])}`);
    settings[key] = assigned[key];
  }
  return { settings, preset, problems };
}

/**
 * Preset `name` under the assignment: refused when its overrides would change a locked field; otherwise its settings
 * with every locked field kept at the assignment's value.
 */
export function presetUnderAssignment(assignment: SharedAssignment, schema: Schema, presets: PresetTable, name: string): { settings: Settings } | { refusal: string } {
  const preset = ownEntry(presets, name);
  const overrides = preset?.overrides ?? {};
  const assigned = assignmentSettings(assignment);
  const changed = assignment.locked.filter((key) => Object.hasOwn(overrides, key) && overrides[key] !== assigned[key]);
  if (changed.length) return { refusal: `The preset ${quoteInput(name)} would change ${changed.join(', ')}, locked by the assignment: it was not applied.` };
  const settings = presetSettings(schema, preset);
  for (const key of assignment.locked) settings[key] = assigned[key];
  return { settings };
}
