import { defineConfig } from '@playwright/test';
import { chromiumArgs, findChromium } from './scripts/chromium.mjs';
import { budget } from './tests/e2e/budget';

const PORT = Number(process.env.E2E_PORT ?? 4173);


// The built site (out/) served as a plain static host would serve it.
export default defineConfig({
  testDir: 'tests/e2e',
  // Set for an idle machine, stretched with the load (tests/e2e/budget.ts).
  timeout: budget(60_000),
  expect: { timeout: budget(10_000) },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
    trace: 'off',
  },
  webServer: {
    command: 'node scripts/serve.mjs out',
    env: { PORT: String(PORT) },
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
