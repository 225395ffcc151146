import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// npm 11 ends an install with "N packages have install scripts not yet covered by allowScripts" for every dependency
// whose install script package.json neither approves nor denies (npm 12 will skip them). Each one the lockfile marks
// is decided here, with why: a newcomer's `npm ci` prints no warning, and a new dependency with a script is reviewed.
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

/** Why each decision: esbuild's postinstall checks (and if need be fetches) its platform binary, which builds need; core-js's prints a banner. */
const DECIDED = { esbuild: true, 'core-js': false };

describe('install scripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('every dependency with an install script is approved or denied in package.json', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(pkg.allowScripts?.[name], `${name} has an install script: approve or deny it in allowScripts`).toBeTypeOf('boolean');
  });

  it('decides no package the lockfile lacks, and runs the scripts the project needs', () => {
    // A stale entry would approve a script no installed package has: the field lists exactly the lockfile's.
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
    for (const [name, run] of Object.entries(DECIDED)) expect(pkg.allowScripts?.[name], name).toBe(run);
  });
});
