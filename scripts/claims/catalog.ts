/**
 * Every claim the course makes about a run — each preset's description, each "this lab shows X" in a chapter — as a
 * seeded run on wasm and an assertion on what it logged. Each trainer's claims live in lib/claims/<trainer>.ts, and its
 * spec (lib/spec/registry.ts `claims()`) loads them; this collects them through the specs. `npm run claims` runs them all; the ones marked `fast` also run inside `npm test`
 * (tests/unit/claims.test.ts). A claim that fails at this scale is rewritten to what is measured, never loosened
 * until it passes.
 */
import type { Claim, ClaimContext, Histories, Verdict } from '@/lib/claims/types';
import { TRAINER_NAMES, TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { NODE_CLAIM_CONTEXT } from './context';


export const CLAIMS_BY_TRAINER = Object.fromEntries(
  await Promise.all(TRAINER_NAMES.map(async (name) => [name, await TRAINERS[name].claims()] as const)),
) as { [N in TrainerName]: readonly Claim[] };

/** A claim whose check reads the chapters on disk unless it is handed another reader. */
export type NodeClaim = Omit<Claim, 'check'> & { check(history: Histories, context?: ClaimContext): Verdict };

/** Every claim, trainer by trainer in the registry's order, each trainer's in the order its module lists them. */
export const CLAIMS: readonly NodeClaim[] = TRAINER_NAMES.flatMap((name) =>
  CLAIMS_BY_TRAINER[name].map((claim) => ({ ...claim, check: (history: Histories, context = NODE_CLAIM_CONTEXT) => claim.check(history, context) })),
);
