// The trainer and preset a training command line names (npm run train, npm run sweep), checked against the registry.
import { ownEntry } from '@/lib/train/config';
import { TRAINER_NAMES, trainerNamed, trainerSettings, type TrainerName } from '@/lib/spec/registry';
import { UsageError } from './cli';

/** The one positional's trainer, its settings schema, and the --preset chosen ('default' if none), checked. */
export function trainerAndPreset(positionals: string[], presetFlag: string | undefined) {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `name a trainer: ${TRAINER_NAMES.join(' | ')}` : `one trainer at a time, got ${positionals.join(' ')}`);
  const name: TrainerName | null = trainerNamed(positionals[0]);
  if (name === null) throw new UsageError(`unknown trainer "${positionals[0]}": name a trainer: ${TRAINER_NAMES.join(' | ')}`);
  const { schema, presets } = trainerSettings(name);
  const presetName = presetFlag ?? 'default';
  const preset = ownEntry(presets, presetName);
  if (!preset) throw new UsageError(`unknown preset "${presetName}" for ${name} (known: ${Object.keys(presets).join(', ')})`);
  return { name, schema, presetName, preset };
}
