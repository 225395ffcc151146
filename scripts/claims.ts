/**
 * npm run claims [-- --fast] [--only id,id] [--help]
 *
 * Runs every claim (lib/claims/<trainer>.ts, collected by scripts/claims/catalog.ts; each a seeded run on wasm) and prints one line per claim, holds or
 * fails with its figures, then a closing count. Exits non-zero if any claim fails.
 */
import { selectBackend } from '@/lib/tf/backend';
import { CLAIMS, CLAIMS_BY_TRAINER } from './claims/catalog';
import { runClaims } from './claims/run';
import { parseFlags, UsageError } from './cli';

const USAGE = 'usage: npm run claims [-- --fast] [--only id,id] [--help]';
let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), { fast: { type: 'boolean', default: false }, only: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, USAGE));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`claims: ${error.message}`);
  process.exit(2);
}
if (values.help) {
  // The ids --only takes, by trainer: the list a reader picks from.
  console.log(`${USAGE}\n  --fast       only the claims npm test runs too\n  --only ids   these claims, by id (comma-separated)\n`);
  for (const [trainer, claims] of Object.entries(CLAIMS_BY_TRAINER)) console.log(`${trainer}: ${claims.map((c) => c.id + (c.fast ? ' (fast)' : '')).join(', ')}`);
  process.exit(0);
}
const only = values.only?.split(',').map((s) => s.trim());
const unknown = only?.filter((id) => !CLAIMS.some((c) => c.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(`claims: unknown claim ${unknown.join(', ')} (known: ${CLAIMS.map((c) => c.id).join(', ')})`);
  process.exit(2);
}
const chosen = CLAIMS.filter((c) => (!values.fast || c.fast) && (!only || only.includes(c.id)));
if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');
const results = await runClaims(chosen, (r) => console.log(`${r.holds ? 'holds' : 'FAILS'}  ${r.claim.id}: ${r.figure}  (${r.seconds.toFixed(0)} s)`));
const failed = results.filter((r) => !r.holds).length;
console.log(`\nclaims: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
