// `npm start`: build the static site if it has not been built yet, then serve it on $PORT (default 3000).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!fs.existsSync('out/index.html')) {
  console.log('No build in out/ yet: running "npm run build" first (about a minute).');
  // Built to be served here: the sitemap lists the pages at this server's origin, unless SITE_URL names another.
  const env = { SITE_URL: `http://localhost:${process.env.PORT ?? 3000}`, ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('./serve.mjs');
