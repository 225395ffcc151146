/**
 * npm run train -- <trainer> [--preset NAME] [--set key=value ...] [--seed N] [--steps N]
 *                  [--backend cpu|wasm] [--init FILE] [--save FILE]
 *                  [--reward FILE.js [--reward-weight W]] [--dataset FILE.jsonl]
 *                  [--assignment FILE --student NAME --submit FILE [--predict CHOICE]]
 *
 * Runs a trainer of lib/spec/registry.ts in Node and prints one JSON object per line: each step's metrics with
 * `step`, `kind` ('train' | 'eval') and `tensors` (tf.memory().numTensors). Evaluation lines carry `eval/accuracy`
 * (or `eval/return` for PPO), including one before the first step. Without --init a trainer starts from its shipped
 * checkpoint (public/models/), or from a fresh model if it builds its own.
 *
 * --reward runs your own reward function beside the built-in ones (grpo, agent): FILE.js is an ES module whose default
 * export takes (completions, ctx) and returns one number per completion, run isolated (scripts/extras.ts). --dataset
 * trains sft, grpo or dpo on your JSONL file instead of the built-in task (lib/tasks/dataset.ts says the format).
 *
 * With --assignment (the instructor's file, or the lab link saved to a file) the run starts from the assignment's
 * settings, and a flag that would change a locked setting is refused. --submit then writes a submission file, as
 * the lab's Submit button does, for the name given by --student. Under an assignment with per-student seeds
 * (lib/teach/seeds.ts) --student is required, training or not: the run's seed is that student's. An assignment that
 * asks a prediction takes it as --predict CHOICE (one of the question's choice ids), given before the run as on the
 * page; without it the submission records none made.
 *
 * Every flag, name, value and path is checked before tfjs loads or training starts: a mistake costs one line on
 * stderr and exit code 2, never a stack trace or a lost run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assignmentSettings, MAX_ASSIGNMENT_FILE_BYTES, parseAnyAssignment, type SharedAssignment } from '@/lib/teach/assignment';
import { buildSubmission, MAX_STUDENT_LENGTH } from '@/lib/teach/submission';
import { ConfigError, parseAssignment, quoteInput, resolve, type FieldValue } from '@/lib/train/config';
import { TRAINER_NAMES, TRAINERS } from '@/lib/spec/registry';
import { errorMessage } from '@/lib/errors';
import { checkSavePath, integerFlag, nodeBackendFlag, parseFlags, readFlagFile, UsageError } from './cli';
import { perStudentSeeds, studentSeed } from '@/lib/teach/seeds';
import { assignedPrediction, type SubmittedPrediction } from '@/lib/teach/prediction';
import { EXTRAS_FLAGS, EXTRAS_USAGE, readExtras } from './extras';
import { trainerAndPreset } from './trainer-flag';

const USAGE = `usage: npm run train -- <${TRAINER_NAMES.join('|')}> [--preset NAME] [--set key=value ...] [--seed N] [--steps N] [--backend cpu|wasm] [--init FILE] [--save FILE] ${EXTRAS_USAGE} [--assignment FILE --student NAME --submit FILE [--predict CHOICE]]`;

function fail(message: string, code = 2): never {
  console.error(`train: ${message.split('\n')[0]}`);
  process.exit(code);
}

/** Everything the run needs, checked: a UsageError names the first problem. */
async function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseFlags(
    argv,
    {
      preset: { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      seed: { type: 'string' },
      steps: { type: 'string' },
      backend: { type: 'string', default: 'cpu' },
      init: { type: 'string' },
      save: { type: 'string' },
      assignment: { type: 'string' },
      student: { type: 'string' },
      submit: { type: 'string' },
      predict: { type: 'string' },
      ...EXTRAS_FLAGS,
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) return null;
  const { name, schema, presetName, preset } = trainerAndPreset(positionals, values.preset);
  const backend = nodeBackendFlag(values.backend!);

  const assignment = values.assignment === undefined ? null : await readAssignment(values.assignment, name);
  const ownSeeds = assignment !== null && perStudentSeeds(assignment);
  if (ownSeeds && values.student === undefined) throw new UsageError('this assignment gives each student their own seed: name the student with --student (your student id)');
  if (!ownSeeds && (values.student === undefined) !== (values.submit === undefined)) throw new UsageError('--student and --submit go together: name the student and the submission file');
  if (values.submit !== undefined && !assignment) throw new UsageError('--submit needs --assignment: a submission answers an assignment');
  if (assignment && values.init !== undefined) throw new UsageError('--init cannot be used with --assignment: an assignment starts from its lab’s own checkpoint');
  const student = values.student?.trim();
  if (student !== undefined && (student.length === 0 || student.length > MAX_STUDENT_LENGTH)) throw new UsageError(`--student must be 1 to ${MAX_STUDENT_LENGTH} characters`);

  // Each override remembers the flag that set it, so a refusal can name it. The assignment's settings as a run uses
  // them: a field the file predates at what runs then had (its absentMeans), not at today's default.
  const assigned = assignment ? assignmentSettings(assignment) : {};
  const overrides: Record<string, unknown> = { ...assigned };
  const source: Record<string, string> = {};
  const override = (key: string, value: FieldValue, flag: string) => {
    overrides[key] = value;
    source[key] = flag;
  };
  if (!assignment || values.preset !== undefined) for (const [key, value] of Object.entries(preset.overrides)) if (value !== undefined) override(key, value, `--preset ${presetName}`);
  for (const text of values.set ?? []) {
    const [key, value] = parseAssignment(schema, text);
    override(key, value, `--set ${text}`);
  }
  const seed = integerFlag('seed', values.seed, 0);
  if (seed !== undefined) override('seed', seed, `--seed ${seed}`);
  const steps = integerFlag('steps', values.steps, 1);
  if (steps !== undefined) override('max_steps', steps, `--steps ${steps}`);
  if (ownSeeds && student !== undefined) {
    const own = studentSeed(assignment!.id, student);
    if (source.seed !== undefined && overrides.seed !== own) throw new UsageError(`the assignment trains ${quoteInput(student)} on seed ${own} (from the assignment and the student id): ${source.seed} would change it`);
    override('seed', own, '--student');
  }
  const config = resolve(schema, overrides); // every value in range, before anything loads
  for (const key of assignment?.locked ?? []) {
    const [locked, wanted] = [assigned[key], overrides[key]];
    if (wanted !== locked) throw new UsageError(`${key} is locked by the assignment at ${show(locked)}: ${source[key]} would change it to ${show(wanted as FieldValue)}`);
  }
  if (values.submit !== undefined && overrides.eval_steps === 0) throw new UsageError('--submit needs eval_steps above 0: a submission carries its run’s final evaluation');

  let init: Uint8Array | undefined;
  if (values.init !== undefined) {
    try {
      init = new Uint8Array(fs.readFileSync(values.init));
    } catch (error) {
      throw new UsageError(`cannot read ${values.init}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (assignment && (values.reward !== undefined || values.dataset !== undefined)) throw new UsageError('--reward and --dataset cannot be used with --assignment: an assignment trains on its lab’s own reward and data');
  const save = values.save === undefined ? undefined : checkSavePath('save', values.save);
  const prediction = await predictionFlag(assignment, values.predict);
  const submit = values.submit === undefined || !assignment || student === undefined ? undefined : { file: checkSavePath('submit', values.submit), student, assignment, prediction };
  // Last: the reward file starts a sandbox, which every earlier refusal should not have to stop.
  const extras = await readExtras(name, values, config);
  return { name, overrides, backend, init, save, submit, extras };
}

const show = (value: FieldValue) => (typeof value === 'string' ? quoteInput(value) : String(value));

/** What the submission says of the assignment's prediction: the choice given before the run, or none made. */
async function predictionFlag(assignment: SharedAssignment | null, choice: string | undefined): Promise<SubmittedPrediction | undefined> {
  const asked = assignment ? await assignedPrediction(assignment) : null;
  if (!asked) {
    if (choice !== undefined) throw new UsageError(assignment ? '--predict: this assignment asks no prediction' : '--predict needs --assignment: a prediction answers an assignment that asks one');
    return undefined;
  }
  if (choice !== undefined && !asked.prediction.choices.some((c) => c.id === choice)) {
    throw new UsageError(`--predict: ${JSON.stringify(choice)} is not a choice of "${asked.prediction.question}…" (choices: ${asked.prediction.choices.map((c) => `${c.id} = ${c.label}`).join('; ')})`);
  }
  return { claim: asked.id, choice: choice ?? null };
}

/** The assignment in `file` (its JSON, or the lab link saved as text), checked against its hash and the trainer. */
async function readAssignment(file: string, trainer: string): Promise<SharedAssignment> {
  const text = readFlagFile(file, MAX_ASSIGNMENT_FILE_BYTES, 'an assignment');
  let assignment: SharedAssignment;
  try {
    assignment = await parseAnyAssignment(text);
  } catch (error) {
    throw new UsageError(`--assignment ${file}: ${(error as Error).message}`);
  }
  if (assignment.trainer !== trainer) throw new UsageError(`--assignment ${file} is for the ${assignment.lab} lab, which trains ${assignment.trainer}, not ${trainer}`);
  return assignment;
}

async function main() {
  let options;
  try {
    options = await parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (options === null) {
    console.log(`${USAGE}\n\n${TRAINER_NAMES.map((n) => `  ${n.padEnd(6)} ${TRAINERS[n].summary}; presets: ${Object.keys(TRAINERS[n].presets).join(', ')}`).join('\n')}`);
    return;
  }

  // tfjs loads from here on.
  const [tf, { startTrainer }, { TrainingRun }] = await Promise.all([import('@tensorflow/tfjs'), import('@/lib/spec/start'), import('@/lib/train/run')]);
  const backend = options.backend as 'cpu' | 'wasm';
  let started;
  try {
    started = await startTrainer(options.name, {
      overrides: options.overrides,
      init: options.init,
      readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))),
      backend: { requested: backend, order: [backend] },
      extras: options.extras.extras,
    });
  } catch (error) {
    options.extras.close();
    fail(`could not start: ${(error as Error).message}`);
  }
  const { trainer } = started;
  const run = new TrainingRun(trainer, {
    maxSteps: trainer.config.max_steps,
    evalEvery: trainer.config.eval_steps,
    onLog: (line) => console.log(JSON.stringify({ step: line.step, kind: line.kind, ...line.metrics, tensors: tf.memory().numTensors })),
  });
  const state = await run.run();
  if (options.save) {
    const bytes = await trainer.save();
    fs.writeFileSync(options.save, bytes);
    console.error(`train: saved ${options.save} (${bytes.length} bytes)`);
  }
  if (options.submit && state === 'done') {
    const { file, student, assignment, prediction } = options.submit;
    const submission = await buildSubmission({
      student,
      assignment,
      trainer: options.name,
      config: { ...trainer.config } as Record<string, FieldValue>,
      history: run.history,
      weights: await trainer.save(),
      environment: { backend, tfjs: tf.version.tfjs, runtime: `Node.js ${process.version} (${process.platform})` },
      prediction,
    });
    fs.writeFileSync(file, JSON.stringify(submission));
    console.error(`train: submitted ${options.submit.file} for ${JSON.stringify(student)}`);
  }
  trainer.dispose();
  options.extras.close();
  // A failing reward function is the reader's input at fault, like a bad flag: exit 2, the history printed so far.
  if (state !== 'done') fail(`${run.error ?? `run ended as ${state}`}${options.submit ? '; nothing was submitted' : ''}`, options.extras.rewardFailed() ? 2 : 1);
}

main().catch((error: unknown) => fail(`unexpected error: ${errorMessage(error)}`, 1));
