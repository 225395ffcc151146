// TrajectoryValidator's logic, shared by the server (the build-time default) and the browser (each Validate):
// validate the text, and for a valid calculator trajectory convert it to the lab's tokens and loss mask.
// The result is plain data, so the server can hand it to the client component as props.
import { trajectoryToLab, validateTrajectory, type LabEpisode, type TrajectoryError } from '@/lib/agentdata';

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

/** How a token is printed in the token view: a space made visible, everything else as is. */
export const showToken = (t: string) => (t === ' ' ? '␣' : t);
