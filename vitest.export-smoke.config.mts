import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The exported TRL projects, run in a real Python environment (tests/export-smoke): opt-in, outside npm test.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: { include: ['tests/export-smoke/**/*.test.ts'], environment: 'node', testTimeout: 30 * 60_000, hookTimeout: 30 * 60_000 },
});
