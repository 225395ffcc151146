import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit and content tests only: Playwright specs live in tests/e2e and run under `playwright test`.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/content/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
