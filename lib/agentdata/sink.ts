import { fmt, MAX_ERRORS } from './limits';
import type { TrajectoryError, TrajectoryErrorCode } from './types';

/** Collects errors: the first MAX_ERRORS in full, the rest only counted by code. */
export class ErrorSink {
  readonly errors: TrajectoryError[] = [];
  private readonly overflow = new Map<TrajectoryErrorCode, number>();
  omitted = 0;
  total = 0;

  add(code: TrajectoryErrorCode, path: string, message: string, line?: number): void {
    this.total++;
    if (this.errors.length < MAX_ERRORS) {
      this.errors.push(line === undefined ? { path, code, message } : { line, path, code, message });
      return;
    }
    this.omitted++;
    this.overflow.set(code, (this.overflow.get(code) ?? 0) + 1);
  }

  summary(): string | undefined {
    if (this.omitted === 0) return undefined;
    const byCode = [...this.overflow].map(([code, n]) => `${code} × ${fmt(n)}`).join(', ');
    return `${fmt(this.omitted)} more error${this.omitted === 1 ? '' : 's'} not listed (only the first ${MAX_ERRORS} are): ${byCode}.`;
  }
}
