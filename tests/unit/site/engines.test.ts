import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// `npm install` on the oldest Node the project promises prints no EBADENGINE warning: every package it installs
// accepts that Node (a dev dependency that wanted Node 22.12 once made a newcomer's first install warn).
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('engines', () => {
  it('the README promises the Node version package.json declares', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const promised = readme.match(/Node\.js ≥ (\d+\.\d+(?:\.\d+)?)/)?.[1];
    expect(promised, 'the README names a minimum Node version').toBeDefined();
    expect(pkg.engines.node).toBe(`>=${promised}`);
  });

  it('every installed package accepts the oldest Node the project promises', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      // An optional package for another platform is never installed here, so npm does not check its engines.
      .filter(([path, entry]) => !entry.optional || fs.existsSync(path))
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(oldest, range) ? [`${path} wants node ${range}`] : [];
      });
    expect(refusing, `packages that refuse Node ${oldest}`).toEqual([]);
  });
});
