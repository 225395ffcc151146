/**
 * npm run assign -- <lab> [--preset NAME (default: the lab's first)] [--lock key,key] [--set key=value ...] --goal "<metric> >= <value>"
 *                   --eval-seed N [--eval-samples N] [--due ISO-DATE] [--title TEXT] [--instructions FILE.md] [--exercises id,id] [--predict]
 *
 * Prints an assignment file (JSON) for a lab, as the /teach/ page makes it; its link is printed on stderr (and, with
 * --exercises, the link where students hand in those code exercises). Each student trains on a seed of their own
 * (lib/teach/seeds.ts) unless --lock names seed: then the class shares the one seed. --due needs a time zone
 * ("2026-12-10T17:00+01:00" or "…Z"): without one it would mean a different time on every machine. Keep the
 * file: grading needs it (it holds the evaluation seed, which the link does not). --predict asks students the
 * prediction the lab offers before a run of the preset (graded as made or not made); a preset without one is refused. Every mistake costs one line on
 * stderr and exit code 2.
 */
import { labNamed, labPresets, labs } from '@/content/labs';
import { ASSIGNMENT_LIMITS, assignmentLink, createAssignment, AssignmentError, exercisesLink } from '@/lib/teach/assignment';
import { EXERCISE_IDS, isExerciseId } from '@/content/exercise-ids';
import { GoalError, parseGoal } from '@/lib/teach/goal';
import { formatDue } from '@/lib/teach/due';
import { ConfigError, ownEntry, parseAssignment, resolve } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { presetPrediction } from '@/lib/teach/prediction';
import { errorMessage } from '@/lib/errors';
import { integerFlag, parseFlags, readFlagFile, UsageError } from './cli';

const LABS = labs.map((l) => l.slug).join(' | ');
const USAGE = `usage: npm run assign -- <${LABS}> [--preset NAME] [--lock key,key] [--set key=value ...] --goal "<metric> >= <value>" --eval-seed N [--eval-samples N] [--due ISO-DATE] [--title TEXT] [--instructions FILE.md] [--exercises id,id] [--predict]`;

async function main(argv: string[]) {
  const { values, positionals } = parseFlags(
    argv,
    {
      preset: { type: 'string' },
      lock: { type: 'string', multiple: true, default: [] },
      set: { type: 'string', multiple: true, default: [] },
      goal: { type: 'string' },
      'eval-seed': { type: 'string' },
      'eval-samples': { type: 'string' },
      due: { type: 'string' },
      title: { type: 'string', default: '' },
      instructions: { type: 'string' },
      exercises: { type: 'string', multiple: true, default: [] },
      predict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `name a lab: ${LABS}` : `one lab at a time, got ${positionals.join(' ')}`);
  const lab = labNamed(positionals[0]); // compares slugs: "__proto__" names nothing
  if (!lab) throw new UsageError(`unknown lab ${JSON.stringify(positionals[0])}: name a lab: ${LABS}`);
  const { schema, presets } = trainerSettings(lab.trainer);
  const offered = labPresets(lab, presets);
  const presetName = values.preset ?? offered[0]; // the lab's own first preset, as its page starts
  if (!offered.includes(presetName)) throw new UsageError(`unknown preset ${JSON.stringify(presetName)} for the ${lab.slug} lab (offered: ${offered.join(', ')})`);
  const overrides: Record<string, number | string | boolean> = {};
  for (const assignment of values.set!) {
    const [key, value] = parseAssignment(schema, assignment);
    overrides[key] = value;
  }
  const locked = values.lock!.flatMap((list) => list.split(',')).map((k) => k.trim()).filter(Boolean);
  const unknownLock = locked.find((k) => !Object.hasOwn(schema, k));
  if (unknownLock !== undefined) throw new UsageError(`--lock: unknown field ${JSON.stringify(unknownLock)} for ${lab.trainer} (known: ${Object.keys(schema).join(', ')})`);
  if (values.goal === undefined) throw new UsageError('--goal is required, e.g. --goal "eval/accuracy >= 0.45"');
  const goal = parseGoal(values.goal, lab.trainer);
  const evalSeed = integerFlag('eval-seed', values['eval-seed']);
  if (evalSeed === undefined) throw new UsageError('--eval-seed is required: the seed of your held-out evaluation set (keep it to yourself)');
  const evalSamples = integerFlag('eval-samples', values['eval-samples']);
  // Instructions are capped at ASSIGNMENT_LIMITS.instructions characters (createAssignment says so); 4 bytes each at most.
  const instructions = values.instructions === undefined ? '' : readFlagFile(values.instructions, 4 * ASSIGNMENT_LIMITS.instructions, 'instructions');
  const exercises = values.exercises!.flatMap((list) => list.split(',')).map((id) => id.trim()).filter(Boolean);
  const unknownExercise = exercises.find((id) => !isExerciseId(id));
  if (unknownExercise !== undefined) throw new UsageError(`--exercises: unknown exercise ${JSON.stringify(unknownExercise)} (known: ${EXERCISE_IDS.join(', ')})`);
  resolve(schema, { ...ownEntry(presets, presetName)!.overrides, ...overrides }); // every value in range, with its field named
  const asked = values.predict ? await presetPrediction(lab.trainer, presetName) : null;
  if (values.predict && !asked) {
    const withOne = (await Promise.all(offered.map(async (name) => ((await presetPrediction(lab.trainer, name)) ? name : null)))).filter((name) => name !== null);
    throw new UsageError(`--predict: the ${lab.slug} lab asks no prediction before a run of the preset ${JSON.stringify(presetName)}${withOne.length ? ` (presets that ask one: ${withOne.join(', ')})` : ' (none of its presets asks one)'}`);
  }
  const file = await createAssignment({
    lab: lab.slug,
    trainer: lab.trainer,
    title: values.title!,
    preset: presetName,
    overrides,
    locked,
    goal,
    evalSeed,
    evalSamples,
    due: values.due ?? null,
    instructions,
    exercises,
    askPrediction: values.predict,
  });
  console.log(JSON.stringify(file, null, 1));
  console.error(
    file.seeding === 'per_student'
      ? 'assign: each student trains on their own seed, derived from the assignment and their student id (lock seed to give the class one seed)'
      : `assign: the class shares seed ${String(file.settings.seed)} (locked): identical weights from two students are expected`,
  );
  if (file.due) console.error(`assign: due ${formatDue(file.due)}`);
  if (asked) console.error(`assign: students are asked to predict, before their run: ${asked.prediction.question}… (graded as made or not made, never right or wrong)`);
  console.error(`assign: the students' link (after your site's address): ${assignmentLink(file)}`);
  const handIn = exercisesLink(file);
  if (handIn) console.error(`assign: where students hand in the exercises (${exercises.join(', ')}): ${handIn}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof GoalError || error instanceof AssignmentError;
  console.error(`assign: ${(errorMessage(error)).split('\n')[0]}`);
  process.exit(known ? 2 : 1);
});
