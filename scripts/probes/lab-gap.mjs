// Not a test (issue 50): a lab run from the built site (a query of settings), its clock split into the trainer's own step time
// (timing/step_ms) and the rest, the main thread's busy time (CDP Performance) and the .wasm files fetched; PROFILE=file adds
// the main thread's CPU profile; OUT_DIR serves another build (a before/after pair).
// Usage: node scripts/probes/lab-gap.mjs grpo 'max_steps=100' [repeats]
import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../chromium.mjs';
import { spawn } from 'node:child_process';
const [slug, query, reps = '1'] = process.argv.slice(2);
/** CPU seconds so far of every Chromium thread, by thread name (Linux /proc): load-proof where wall times are not. */
function chromiumCpu() {
  const byName = {};
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        byName[`${type}:${name}|${pid}/${tid}`] = (Number(f[11]) + Number(f[12])) / 100;
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return byName;
}
function cpuSince(a, b) {
  const byName = {};
  for (const [k, v] of Object.entries(b)) byName[k.split('|')[0]] = (byName[k.split('|')[0]] ?? 0) + v - (a[k] ?? 0);
  return Object.fromEntries(Object.entries(byName).map(([k, v]) => [k, +v.toFixed(2)]).filter(([, v]) => v >= 0.05).sort((x, y) => y[1] - x[1]));
}
const PORT = 4213;
// OUT_DIR: another build to serve (a before/after pair), default out/.
const child = spawn('node', ['scripts/serve.mjs', process.env.OUT_DIR ?? 'out'], { env: { ...process.env, PORT: String(PORT) }, stdio: 'pipe', detached: true });
await new Promise((resolve) => child.stdout.once('data', resolve));
const server = { stop: () => process.kill(-child.pid) };
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
try {
  for (let r = 0; r < Number(reps); r++) {
    const page = await browser.newPage({ acceptDownloads: true });
    const wasm = [];
    page.on('request', (req) => { if (req.url().endsWith('.wasm')) wasm.push(req.url().split('/').pop()); });
    await page.goto(`http://127.0.0.1:${PORT}/labs/${slug}/?${query}`);
    await page.mouse.move(5, 5); await page.mouse.move(12, 9);
    await page.waitForFunction(() => document.querySelector('.lab[data-boot-pending]') === null);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const m0 = await metric();
    if (process.env.PROFILE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 500 }); await cdp.send('Profiler.start'); }
    const load0 = os.loadavg()[0];
    const cpu0 = chromiumCpu();
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    const status = page.locator('.lab-status[data-elapsed-ms]');
    await status.waitFor({ timeout: 900_000 });
    const ms = Number(await status.getAttribute('data-elapsed-ms'));
    const m1 = await metric();
    const cpu = cpuSince(cpu0, chromiumCpu());
    if (process.env.PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const self = new Map();
      profile.samples.forEach((id, i) => {
        const n = byId.get(id);
        const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
      });
      fs.writeFileSync(process.env.PROFILE, JSON.stringify(profile));
      console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0).padStart(7)} ms ${k}`).join('\n'));
    }
    const main = { task_s: +(m1.TaskDuration - m0.TaskDuration).toFixed(2), script_s: +(m1.ScriptDuration - m0.ScriptDuration).toFixed(2), layout_s: +(m1.LayoutDuration - m0.LayoutDuration + m1.RecalcStyleDuration - m0.RecalcStyleDuration).toFixed(2) };
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export run (JSON)' }).click()]);
    const run = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    const train = run.history.filter((l) => l.kind === 'train');
    const stepMs = train.reduce((s, l) => s + (l.metrics['timing/step_ms'] ?? 0), 0);
    const evals = run.history.filter((l) => l.kind === 'eval').length;
    console.log(JSON.stringify({ build: process.env.OUT_DIR ?? 'out', slug, query, load: [load0, os.loadavg()[0]].map((x) => +x.toFixed(1)), elapsed_s: +(ms / 1000).toFixed(2), steps: train.length, step_ms_sum_s: +(stepMs / 1000).toFixed(2), outside_steps_s: +((ms - stepMs) / 1000).toFixed(2), evals, main_thread: main, cpu_s: cpu, wasm: [...new Set(wasm)] }));
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
