/**
 * An assignment: a lab with starting settings (some locked), a goal and a due date. The instructor keeps the file
 * (it also holds the evaluation seed); students get a link holding everything else. Both carry a SHA-256 of their
 * shared content, so an edited link or file is detected: detected, not secret (anyone can recompute a hash, so the
 * grader compares against the instructor's own file, never against what a submission says). No tfjs.
 */
import { z } from 'zod';
import { completeConfigProblem, ownEntry, presetSettings, quoteInput, type FieldValue } from '@/lib/train/config';
import { runSettingsOf, TRAINER_NAMES, trainerSettings, unmeasuredGoal, type TrainerName } from '@/lib/spec/registry';
import { labNamed, labPresets } from '@/content/labs';
import { base64UrlToText, canonicalJson, parseUntrustedJson, SHA256_HEX, sha256Hex, textToBase64Url } from './canonical';
import { GOAL_OPS, goalMetrics, type Goal } from './goal';
import { EXERCISE_IDS, isExerciseId } from '@/content/exercise-ids';
import { DueError, parseDue } from './due';
import { goalRangeProblem } from './goal';
import { SEEDINGS, type Seeding } from './seeds';
import { createRng } from '@/lib/random';
import { assignedPrediction, presetPrediction } from './prediction';

/** The most exercises one assignment lists. */
export const MAX_ASSIGNED_EXERCISES = 20;

export const ASSIGNMENT_FORMAT = 'agentic-rl-lab/assignment';
/**
 * The versions this site reads, and what changed:
 *  1. one seed for the class (whatever `settings.seed` held); due dates stored in UTC; exercises regraded on fresh
 *     random cases.
 *  2. `seeding` ("per_student": each student's seed comes from the assignment id and their student id,
 *     lib/teach/seeds.ts; "locked": the one seed the instructor locked); due dates keep the offset they were given
 *     in; `grading.exercise_seed` draws the exercise cases, so every regrade gives the same rows.
 * New files are version 2; version 1 files read and grade as they always did.
 */
export const ASSIGNMENT_VERSIONS = [1, 2] as const;
export const ASSIGNMENT_VERSION = 2 as const;
export const ASSIGNMENT_LIMITS = { title: 120, instructions: 4000, locked: 64, fileBytes: 100_000 } as const;
/** A file larger than this cannot hold a valid assignment (at most 4 UTF-8 bytes per character): refused unread. */
export const MAX_ASSIGNMENT_FILE_BYTES = 4 * ASSIGNMENT_LIMITS.fileBytes;

/** What the hash covers and the link carries. */
export interface AssignmentCore {
  format: typeof ASSIGNMENT_FORMAT;
  version: 1 | 2;
  id: string;
  title: string;
  /** The lab's slug (content/labs.ts); its trainer is `trainer`. */
  lab: string;
  trainer: TrainerName;
  preset: string;
  /** Every field of the trainer's config: where the student starts. */
  settings: Record<string, FieldValue>;
  /** Fields the student may not change. */
  locked: string[];
  goal: Goal;
  /** ISO 8601, or null for none. */
  due: string | null;
  /** Markdown, rendered with a small safe subset (lib/teach/markdown.ts). */
  instructions: string;
  created: string;
  /**
   * Code exercises (content/exercises.ts ids) handed in on /exercises/ as a file of their own. Absent when there are
   * none, so assignments made before exercises existed keep their hash.
   */
  exercises?: string[];
  /** Version 2: how students' seeds are chosen (absent in version 1: the one seed in `settings`). */
  seeding?: Seeding;
  /**
   * The id of the claim whose prediction students are asked before their run (lib/claims; one the preset's runs ask),
   * graded as made or not made (lib/teach/prediction.ts). Absent when none is asked, so older assignments keep their hash.
   */
  prediction?: string;
}
export interface SharedAssignment extends AssignmentCore {
  hash: string;
}
/** The instructor's file: the shared part and how grading measures (kept out of the link). */
export interface AssignmentFile extends SharedAssignment {
  /** exercise_seed (version 2): the seed of the cases every exercise submission is run on. */
  grading: { eval_seed: number; eval_samples: number; exercise_seed?: number };
}

export class AssignmentError extends Error {}

const value = z.union([z.number(), z.string().max(100), z.boolean()]);
const core = z
  .object({
    format: z.literal(ASSIGNMENT_FORMAT, { error: `not an assignment (expected "format": "${ASSIGNMENT_FORMAT}")` }),
    version: z.union([z.literal(1), z.literal(2)], { error: 'unsupported assignment version (this site reads versions 1 and 2)' }),
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    title: z.string().max(ASSIGNMENT_LIMITS.title),
    lab: z.string().regex(/^[a-z0-9-]{1,40}$/),
    trainer: z.enum(TRAINER_NAMES as [TrainerName, ...TrainerName[]]),
    preset: z.string().max(60),
    settings: z.record(z.string(), value),
    locked: z.array(z.string().max(60)).max(ASSIGNMENT_LIMITS.locked),
    goal: z.object({ metric: z.string().max(60), op: z.enum(GOAL_OPS), value: z.number() }).strict(),
    due: z.iso.datetime({ offset: true }).nullable(),
    instructions: z.string().max(ASSIGNMENT_LIMITS.instructions),
    created: z.iso.datetime({ offset: true }),
    exercises: z.array(z.string().max(40)).min(1).max(MAX_ASSIGNED_EXERCISES).optional(),
    seeding: z.enum(SEEDINGS).optional(),
    prediction: z.string().max(80).optional(),
  })
  .strict();
const shared = core.extend({ hash: z.string().regex(SHA256_HEX) }).strict();
const file = shared
  .extend({
    grading: z
      .object({ eval_seed: z.number().int().min(0).max(2 ** 31 - 1), eval_samples: z.number().int().min(10).max(5000), exercise_seed: z.number().int().min(0).max(2 ** 32 - 1).optional() })
      .strict(),
  })
  .strict();

const CORE_KEYS = Object.keys(core.shape) as (keyof AssignmentCore)[];
// An optional field that is absent stays absent: it is not part of the hash of an assignment that lacks it.
const coreOf = (a: AssignmentCore): AssignmentCore => Object.fromEntries(CORE_KEYS.filter((k) => a[k] !== undefined).map((k) => [k, a[k]])) as unknown as AssignmentCore;

export const assignmentHash = (a: AssignmentCore) => sha256Hex(canonicalJson(coreOf(a)));

/** What zod's first issue says, as "path: message". */
export const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
};

/** The lab an assignment names, which must train with the assignment's trainer. */
function labOf(a: { lab: string; trainer: TrainerName }) {
  const lab = labNamed(a.lab);
  if (!lab || lab.trainer !== a.trainer) throw new AssignmentError(`lab: no lab ${quoteInput(a.lab)} trains with ${a.trainer}`);
  return lab;
}

/** The checks a schema cannot make: the lab, names that must exist in the trainer's schema, presets, goal metrics. */
function checkContent(a: AssignmentCore): void {
  labOf(a);
  // Version 1 had no seeding; version 2 always says how seeds are chosen, and a locked seed is one locked on purpose.
  if (a.version === 1 && a.seeding !== undefined) throw new AssignmentError('seeding: a version 1 assignment has no seeding (made by a later version?)');
  if (a.version === 2 && a.seeding === undefined) throw new AssignmentError('seeding: missing ("per_student" or "locked")');
  if (a.seeding === 'locked' && !a.locked.includes('seed')) throw new AssignmentError('seeding: "locked" needs seed among the locked settings');
  if (a.seeding === 'per_student' && a.locked.includes('seed')) throw new AssignmentError('seeding: "per_student" gives each student a seed: seed cannot also be locked to one value');
  const { schema, presets } = trainerSettings(a.trainer);
  const problem = completeConfigProblem(schema, a.settings);
  if (problem !== null) throw new AssignmentError(`settings: ${problem}`);
  if (a.settings.eval_steps === 0) throw new AssignmentError('settings: eval_steps must be above 0: a submission carries its run’s final evaluation');
  const badLock = a.locked.find((k) => !Object.hasOwn(schema, k));
  if (badLock !== undefined) throw new AssignmentError(`locked: unknown field ${quoteInput(badLock)} for ${a.trainer}`);
  if (new Set(a.locked).size !== a.locked.length) throw new AssignmentError('locked: a field is listed twice');
  if (!ownEntry(presets, a.preset)) throw new AssignmentError(`preset: unknown preset ${quoteInput(a.preset)} for ${a.trainer}`);
  if (!goalMetrics(a.trainer).includes(a.goal.metric)) throw new AssignmentError(`goal: ${a.trainer} cannot be graded on ${quoteInput(a.goal.metric)}`);
  if (!Number.isFinite(a.goal.value)) throw new AssignmentError('goal: the threshold must be a finite number');
  if (a.exercises) {
    const unknown = a.exercises.find((id) => !isExerciseId(id));
    if (unknown !== undefined) throw new AssignmentError(`exercises: unknown exercise ${quoteInput(unknown)} (known: ${EXERCISE_IDS.join(', ')})`);
    if (new Set(a.exercises).size !== a.exercises.length) throw new AssignmentError('exercises: an exercise is listed twice');
  }
  const unmeasured = unmeasuredGoal(a.trainer, a.goal.metric, assignmentSettings(a));
  if (unmeasured !== null) throw new AssignmentError(`goal: ${unmeasured}`);
}

/**
 * The complete settings a run of this assignment starts from: `settings` as the file has them, with each field the file
 * predates at what runs then had (its schema's `absentMeans`, lib/train/config.ts). The file itself, and so its hash,
 * stays as written: read an assignment's settings through this wherever they start, rebuild or check a run.
 */
export function assignmentSettings(a: Pick<AssignmentCore, 'trainer' | 'settings'>): Record<string, FieldValue> {
  return runSettingsOf(a.trainer, a.settings);
}

/** The check that loads the trainer's claims: an asked prediction must be one the preset's runs ask. */
async function checkPrediction(a: AssignmentCore): Promise<void> {
  try {
    await assignedPrediction(a);
  } catch (error) {
    throw new AssignmentError(`prediction: ${(error as Error).message}`);
  }
}

export interface AssignmentInput {
  lab: string;
  trainer: TrainerName;
  title: string;
  preset: string;
  /** Overrides on top of the preset. */
  overrides: Record<string, FieldValue>;
  locked: string[];
  goal: Goal;
  evalSeed: number;
  evalSamples?: number;
  /** ISO 8601 with a time zone ("2026-12-10T17:00+01:00"); stored with that zone. A date without one is refused. */
  due?: string | null;
  instructions?: string;
  /** Code exercises to hand in too (content/exercises.ts ids); none by default. */
  exercises?: string[];
  /** The seed of the exercise cases; drawn at random when not given (reissuing an assignment keeps its own). */
  exerciseSeed?: number;
  /** Ask students the prediction the preset's runs offer (refused when the preset has none). */
  askPrediction?: boolean;
}

/** Builds and hashes an assignment; throws an AssignmentError naming the first problem. */
export async function createAssignment(input: AssignmentInput, now = new Date()): Promise<AssignmentFile> {
  const { schema, presets } = trainerSettings(input.trainer);
  const lab = labOf(input);
  const offered = labPresets(lab, presets);
  const preset = offered.includes(input.preset) ? ownEntry(presets, input.preset) : undefined;
  if (!preset) throw new AssignmentError(`preset: unknown preset ${quoteInput(input.preset)} for the ${lab.slug} lab (offered: ${offered.join(', ')})`);
  const settings = { ...presetSettings(schema, preset), ...input.overrides };
  let due: string | null = null;
  if (input.due) {
    try {
      due = parseDue(input.due);
    } catch (error) {
      throw new AssignmentError(`due: ${error instanceof DueError ? error.message : String(error)}`);
    }
  }
  const goalProblem = goalRangeProblem(input.goal, input.trainer);
  if (goalProblem) throw new AssignmentError(`goal: ${goalProblem}`);
  // Locking seed is the instructor's choice of one seed for the class; otherwise every student gets their own.
  const seeding: Seeding = input.locked.includes('seed') ? 'locked' : 'per_student';
  let prediction: string | undefined;
  if (input.askPrediction) {
    const asked = await presetPrediction(input.trainer, input.preset);
    if (!asked) throw new AssignmentError(`prediction: the ${lab.slug} lab asks no prediction before a run of the preset ${quoteInput(input.preset)}; choose a preset that does, or ask none`);
    prediction = asked.id;
  }
  const id = [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const draft = {
    format: ASSIGNMENT_FORMAT,
    version: ASSIGNMENT_VERSION,
    id,
    title: input.title.trim() || `${input.lab} lab`,
    lab: input.lab,
    trainer: input.trainer,
    preset: input.preset,
    settings,
    locked: [...new Set(input.locked)],
    goal: input.goal,
    due,
    instructions: input.instructions ?? '',
    created: now.toISOString(),
    ...(input.exercises && input.exercises.length > 0 ? { exercises: input.exercises } : {}),
    seeding,
    ...(prediction !== undefined ? { prediction } : {}),
  };
  const parsed = core.safeParse(draft);
  if (!parsed.success) throw new AssignmentError(firstIssue(parsed.error));
  checkContent(parsed.data);
  await checkPrediction(parsed.data);
  const grading = { eval_seed: input.evalSeed, eval_samples: input.evalSamples ?? 200, exercise_seed: input.exerciseSeed ?? crypto.getRandomValues(new Uint32Array(1))[0] };
  const checked = file.shape.grading.safeParse(grading);
  if (!checked.success) throw new AssignmentError(`grading: ${firstIssue(checked.error)}`);
  return { ...parsed.data, hash: await assignmentHash(parsed.data), grading };
}

function parseJson(text: string): unknown {
  try {
    return parseUntrustedJson(text);
  } catch (error) {
    throw new AssignmentError((error as Error).message);
  }
}

async function verified<T extends SharedAssignment>(parsed: z.ZodSafeParseResult<T>, what: string): Promise<T> {
  if (!parsed.success) throw new AssignmentError(firstIssue(parsed.error));
  // The hash first: an edit is reported as one, whatever rule it also breaks.
  if ((await assignmentHash(parsed.data)) !== parsed.data.hash) throw new AssignmentError(`${what} was edited: its content does not match its hash`);
  checkContent(parsed.data);
  await checkPrediction(parsed.data);
  return parsed.data;
}

/** Reads the instructor's assignment file (untrusted text); throws an AssignmentError. */
export async function parseAssignmentFile(text: string): Promise<AssignmentFile> {
  if (text.length > ASSIGNMENT_LIMITS.fileBytes) throw new AssignmentError('too large to be an assignment');
  const a = await verified(file.safeParse(parseJson(text)), 'the assignment');
  if (a.version >= 2 && a.grading.exercise_seed === undefined) throw new AssignmentError('grading: exercise_seed is missing (a version 2 assignment has one)');
  return a;
}

/**
 * The seed of the cases an assignment's exercise submissions are run on, so the page, the CLI and a second run give
 * the same rows: version 2 stores it; for a version 1 file it is derived from the evaluation seed and the id.
 */
export function exerciseSeedOf(a: Pick<AssignmentFile, 'id' | 'grading'>): number {
  return a.grading.exercise_seed ?? createRng(`agentic-rl-lab/exercise-seed/${a.id}/${a.grading.eval_seed}`).int(2 ** 32);
}

/**
 * Reads an assignment however a student or instructor holds it: the instructor's file, the shared JSON, or the lab
 * link itself (anything with "#assignment=…"). Throws an AssignmentError.
 */
export async function parseAnyAssignment(text: string): Promise<SharedAssignment> {
  const trimmed = text.trim();
  const at = trimmed.indexOf(`#${LINK_KEY}=`);
  if (!trimmed.startsWith('{') && at >= 0) return (await readAssignmentFragment(trimmed.slice(at)))!;
  if (text.length > ASSIGNMENT_LIMITS.fileBytes) throw new AssignmentError('too large to be an assignment');
  const json = parseJson(text);
  if (json !== null && typeof json === 'object' && Object.hasOwn(json, 'grading')) return verified(file.safeParse(json), 'the assignment');
  return verified(shared.safeParse(json), 'the assignment');
}

/** The part of the file students see. */
export function sharedPart(a: AssignmentFile): SharedAssignment {
  return { ...coreOf(a), hash: a.hash };
}

/** The key of the lab link's fragment: /labs/<lab>/#assignment=<base64url JSON>. A fragment never reaches a server. */
export const LINK_KEY = 'assignment';

/** The lab page's address with the assignment in its fragment (the site root is `origin`, '' for a relative link). */
export function assignmentLink(a: AssignmentFile, origin = ''): string {
  return `${origin}/labs/${a.lab}/#${LINK_KEY}=${textToBase64Url(JSON.stringify(sharedPart(a)))}`;
}

/** The page where students hand in the assignment's exercises, with the assignment in its fragment; null without exercises. */
export function exercisesLink(a: AssignmentFile | SharedAssignment, origin = ''): string | null {
  if (!a.exercises || a.exercises.length === 0) return null;
  const shared = 'grading' in a ? sharedPart(a) : { ...coreOf(a), hash: a.hash };
  return `${origin}/exercises/#${LINK_KEY}=${textToBase64Url(JSON.stringify(shared))}`;
}

/** Reads the assignment from a link's fragment ("#assignment=…"); null when it has none. Throws an AssignmentError. */
export async function readAssignmentFragment(fragment: string): Promise<SharedAssignment | null> {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const encoded = params.get(LINK_KEY);
  if (encoded === null) return null;
  if (encoded.length > 40_000) throw new AssignmentError('the assignment in this link is too long');
  let text: string;
  try {
    text = base64UrlToText(encoded);
  } catch {
    throw new AssignmentError('the assignment in this link is damaged (not base64url)');
  }
  return verified(shared.safeParse(parseJson(text)), 'this assignment link');
}
