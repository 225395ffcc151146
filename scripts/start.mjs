// `npm start`: build the static site if it has not been built yet, then serve it on $PORT (default 3000).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!fs.existsSync('out/index.html')) {
  console.log('No build in out/ yet: running "npm run build" first (about a minute).');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('./serve.mjs');
