/**
 * Time budgets for the browser tests. They are set for an idle 2-core machine; on a busy one everything takes longer,
 * and a budget that assumes idleness makes a flaky test. Every budget stretches with the load the suite starts under
 * (the 1-minute load average per core, 1× to 3×), or by E2E_TIMEOUT_SCALE when set: playwright.config.ts applies it to
 * the default test and assertion timeouts, and a spec that sets its own passes the number through `budget`.
 */
import os from 'node:os';

function timeoutScale(): number {
  const set = Number(process.env.E2E_TIMEOUT_SCALE);
  if (Number.isFinite(set) && set > 0) return set;
  return Math.min(3, Math.max(1, os.loadavg()[0] / os.cpus().length));
}

/** How much longer than on an idle machine this run's budgets are. */
export const TIMEOUT_SCALE = timeoutScale();

/** `ms`, a budget set for an idle machine, stretched for this one. */
export const budget = (ms: number) => Math.round(ms * TIMEOUT_SCALE);
