// TrajectoryValidator's logic, shared by the server (the build-time default) and the browser (each Validate):
// validate the text, and for a valid calculator trajectory convert it to the lab's tokens and loss mask.
// The result is plain data, so the server can hand it to the client component as props. In the browser this
// module is a chunk of its own, fetched on the reader's first Validate, so the page's first load stays light.
import { trajectoryToLab, validateTrajectory, type LabEpisode, type TrajectoryError } from '@/lib/agentdata';
import { BROKEN_EXAMPLES, pretty, TWO_CALL_TRAJECTORY } from '@/lib/agentdata/examples';

export interface ValidatorView {
  ok: boolean;
  errors: TrajectoryError[];
  /** Errors found beyond those listed. */
  omitted: number;
  summary?: string;
  checked: number;
  /** The first valid trajectory's lab tokens, or why it has none; null when nothing is valid. */
  episode: LabEpisode | null;
}

export function runValidator(text: string): ValidatorView {
  const r = validateTrajectory(text);
  const first = r.trajectories[0];
  return {
    ok: r.ok,
    errors: r.errors,
    omitted: r.omitted,
    summary: r.summary,
    checked: r.checked,
    episode: r.ok && first ? trajectoryToLab(first.trajectory) : null,
  };
}

export interface ExampleChoice {
  label: string;
  /** -1: the valid default; otherwise an index into BROKEN_EXAMPLES. */
  index: number;
}

/** The example menu, as plain data for the server to pass down (the texts stay in the validator's chunk). */
export const exampleChoices = (): ExampleChoice[] => [
  { label: 'Valid: two calculator calls', index: -1 },
  ...BROKEN_EXAMPLES.map((e, index) => ({ label: `${e.code}: ${e.label}`, index })),
];

export const exampleText = (index: number) => (index < 0 ? pretty(TWO_CALL_TRAJECTORY) : BROKEN_EXAMPLES[index].text);
