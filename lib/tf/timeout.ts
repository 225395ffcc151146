/** Thrown by {@link withTimeout}; `name` lets callers tell a timeout from any other failure. */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/**
 * Resolves or rejects like `promise`, or rejects with a {@link TimeoutError} after `ms` milliseconds.
 * The underlying work is not cancelled (a promise cannot be); callers must tolerate a late settlement.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
