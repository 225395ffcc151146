/**
 * npm run record:browser-times -- [--labs grpo,vision] [--out-dir content]
 *
 * Times every lab's default run where learners run it: the built site (`out/`, from `npm run build`) served locally,
 * each lab's page opened in Chromium with its first preset, Train pressed, and the run followed to "finished". The
 * time is the lab's own clock (labs/shell/progress.ts: Train to the last step, the model's build and every
 * evaluation included, pauses excluded), read from the status line's data-elapsed-ms. The backend is the one the
 * lab chose ('auto'): on a machine without a GPU, WebAssembly. Written to content/lab-times.json's `browser` record,
 * with the browser, the machine and its load when the recording started (run it on an idle machine: the numbers are
 * what a reader's laptop of that kind waits). Progress on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { labs } from '@/content/labs';
import { labTimesSchema, type BrowserTimes } from '@/content/recorded-runs';
import { errorMessage } from '@/lib/errors';
import { chromiumArgs, findChromium } from './chromium.mjs';
import { namesFlag, parseFlags, UsageError } from './cli';
import { serveOut } from './serve-out.mjs';

const USAGE = 'usage: npm run record:browser-times -- [--labs slug,slug] [--out-dir content]';
const PORT = Number(process.env.RECORD_PORT ?? 4188);
/** The longest a default run may take here before the recording gives up on it (the vision lab's took minutes). */
const RUN_LIMIT_MS = 20 * 60_000;
const log = (message: string) => console.error(`record: ${message}`);

async function main(argv: string[]) {
  const { values } = parseFlags(argv, { labs: { type: 'string' }, 'out-dir': { type: 'string', default: 'content' }, help: { type: 'boolean', short: 'h' } }, USAGE);
  if (values.help) return console.log(USAGE);
  const chosen = namesFlag('--labs', values.labs, labs.map((l) => l.slug));
  const timesFile = path.join(values['out-dir']!, 'lab-times.json');
  const times = labTimesSchema.parse(JSON.parse(fs.readFileSync(timesFile, 'utf8')));
  const executablePath = findChromium();
  if (!executablePath) throw new UsageError('no Chromium found (set CHROMIUM_PATH)');

  const loadPerCore = Math.round((os.loadavg()[0] / os.cpus().length) * 100) / 100;
  if (loadPerCore > 0.3) log(`the machine is busy (load ${loadPerCore} per core): these times will be longer than a reader's`);
  if (!fs.existsSync('out/index.html')) throw new UsageError('no build in out/: run npm run build first');
  const { stop } = await serveOut(PORT);
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    const record: BrowserTimes = {
      recorded: new Date().toISOString(),
      command: 'npm run record:browser-times',
      browser: `Chromium ${browser.version()}`,
      machine: { cpu: os.cpus()[0]?.model.trim() ?? 'unknown', cores: os.cpus().length, platform: `${process.platform} ${process.arch}` },
      load_per_core: loadPerCore,
      labs: { ...times.browser?.labs },
    };
    for (const slug of chosen) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`http://127.0.0.1:${PORT}/labs/${slug}/`);
      // The page starts its code on the reader's first move; the lab is ready once it has read its address.
      await page.mouse.move(5, 5);
      await page.mouse.move(12, 9);
      await page.locator('.lab').first().waitFor();
      await page.waitForFunction(() => document.querySelector('.lab[data-boot-pending]') === null);
      const preset = await page.getByLabel('Preset').inputValue();
      const maxSteps = Number(await page.getByLabel('max_steps', { exact: true }).inputValue());
      log(`${slug}: Train on ${preset} (${maxSteps} steps)`);
      await page.getByRole('button', { name: 'Train', exact: true }).click();
      const status = page.locator('.lab-status[data-elapsed-ms]');
      await status.waitFor({ timeout: RUN_LIMIT_MS });
      const ms = Number(await status.getAttribute('data-elapsed-ms'));
      const backend = ((await status.textContent()) ?? '').split(' · ')[0].trim();
      record.labs[slug] = { preset, max_steps: maxSteps, backend, seconds: Math.round(ms / 100) / 10 };
      log(`${slug}: finished in ${(ms / 1000).toFixed(1)} s on ${backend}`);
      await page.close();
    }
    fs.writeFileSync(timesFile, `${JSON.stringify(labTimesSchema.parse({ ...times, browser: record }), null, 1)}\n`);
    log(`wrote ${timesFile}`);
  } finally {
    await browser.close();
    stop();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`record: ${errorMessage(error).split('\n')[0]}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
