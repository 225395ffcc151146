/** What a claim's check reads besides its runs, read from disk: the CLI and the tests check claims in Node. */
import fs from 'node:fs';
import path from 'node:path';
import type { ClaimContext } from '@/lib/claims/types';

export const NODE_CLAIM_CONTEXT: ClaimContext = {
  // Read on every call, not cached: a test that edits nothing still sees the chapter as it is now on disk.
  chapter: (file) => fs.readFileSync(path.join('content/chapters', file), 'utf8'),
};
