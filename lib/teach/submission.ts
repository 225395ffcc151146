/**
 * A student's submission: who, for which assignment, the full config and metric history of the run, its trained
 * weights (the core's checkpoint format, base64), where it ran and when. Two hashes bind it together: the weights'
 * SHA-256, and a digest of everything else, both recorded at Submit. They show an edit made after Submit; a student
 * can recompute them, so what grading really relies on is re-evaluation (lib/teach/grade.ts). No tfjs.
 */
import { z } from 'zod';
import type { FieldValue } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import type { TrainerName } from '@/lib/spec/registry';
import { canonicalJson, SHA256_HEX, sha256Hex, toBase64 } from './canonical';
import type { SharedAssignment } from './assignment';
import type { SubmittedPrediction } from './prediction';

export const SUBMISSION_FORMAT = 'agentic-rl-lab/submission';
/** Checked before a file is read. The lab's weights are ~150 KB in base64; 40,000 logged steps are ~5 MB. */
export const MAX_SUBMISSION_BYTES = 5_000_000;
const MAX_WEIGHTS_BASE64 = 4_000_000;
export const MAX_STUDENT_LENGTH = 100;

export interface Submission {
  format: typeof SUBMISSION_FORMAT;
  version: 1;
  /** The name or id the student typed: untrusted text, shown as text only. */
  student: string;
  assignment: { id: string; hash: string };
  trainer: string;
  config: Record<string, FieldValue>;
  history: LogLine[];
  weights: { format: 'arlw'; sha256: string; data: string };
  environment: { backend: string; tfjs: string; runtime: string };
  submitted: string;
  /**
   * Only under an assignment that asks a prediction: the claim and the choice the lab fixed when this run started
   * (null: none made before it). Absent from older files, which read as before; graded as made or not made.
   */
  prediction?: SubmittedPrediction;
  /** SHA-256 of the canonical JSON of every other field. */
  digest: string;
}

export const submissionSchema = z
  .object({
    format: z.literal(SUBMISSION_FORMAT, { error: `not a submission (expected "format": "${SUBMISSION_FORMAT}")` }),
    version: z.literal(1, { error: 'unsupported submission version (this site reads version 1)' }),
    student: z.string().trim().min(1, { error: 'no student name' }).max(MAX_STUDENT_LENGTH),
    assignment: z.object({ id: z.string().max(40), hash: z.string().regex(SHA256_HEX) }).strict(),
    trainer: z.string().max(20),
    config: z.record(z.string().max(60), z.union([z.number(), z.string().max(100), z.boolean()])),
    history: z
      .array(
        z
          .object({
            step: z.number().int().min(0),
            kind: z.enum(['train', 'eval']),
            // JSON has no NaN: a NaN metric comes back as null.
            metrics: z.record(z.string().max(80), z.number().nullable()),
          })
          .strict(),
      )
      .min(1)
      .max(100_000),
    weights: z.object({ format: z.literal('arlw'), sha256: z.string().regex(SHA256_HEX), data: z.string().max(MAX_WEIGHTS_BASE64) }).strict(),
    environment: z.object({ backend: z.string().max(40), tfjs: z.string().max(40), runtime: z.string().max(400) }).strict(),
    submitted: z.iso.datetime({ offset: true }),
    // Read by lib/teach/prediction.ts's markPrediction: a malformed prediction is reported by name and counts as not
    // made, while the run it came with still grades.
    prediction: z.unknown().optional(),
    digest: z.string().regex(SHA256_HEX),
  })
  .strict();

/** The digest of a submission as parsed from JSON: every field but `digest` itself. */
export function submissionDigest(json: Record<string, unknown>): Promise<string> {
  const { digest: _, ...rest } = json;
  return sha256Hex(canonicalJson(rest));
}

export interface SubmissionParts {
  student: string;
  assignment: SharedAssignment;
  config: Record<string, FieldValue>;
  history: LogLine[];
  weights: Uint8Array;
  environment: Submission['environment'];
  trainer: TrainerName;
  submitted?: Date;
  /** Under an assignment that asks a prediction: what was fixed when the run started. */
  prediction?: SubmittedPrediction;
}

/** Builds a submission with both hashes; its JSON text is what the student hands in. */
export async function buildSubmission(parts: SubmissionParts): Promise<Submission> {
  const student = parts.student.trim();
  if (!student) throw new Error('type your name or student id first');
  if (student.length > MAX_STUDENT_LENGTH) throw new Error(`a name is at most ${MAX_STUDENT_LENGTH} characters`);
  // Through JSON once: NaN becomes null, as in the file, so the digest is of exactly what is written.
  const history = JSON.parse(JSON.stringify(parts.history)) as LogLine[];
  const body = {
    format: SUBMISSION_FORMAT as typeof SUBMISSION_FORMAT,
    version: 1 as const,
    student,
    assignment: { id: parts.assignment.id, hash: parts.assignment.hash },
    trainer: parts.trainer,
    config: parts.config,
    history,
    weights: { format: 'arlw' as const, sha256: await sha256Hex(parts.weights), data: toBase64(parts.weights) },
    environment: parts.environment,
    submitted: (parts.submitted ?? new Date()).toISOString(),
    ...(parts.prediction ? { prediction: parts.prediction } : {}),
  };
  return { ...body, digest: await submissionDigest(body) };
}

/** A file name for a submission: the assignment id and the student's name reduced to safe characters. */
export function submissionFileName(s: Pick<Submission, 'student' | 'assignment'>): string {
  const who = s.student.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'student';
  return `submission-${s.assignment.id}-${who}.json`;
}
