// Where the browser tests find Chromium. Debian's package is the only browser these machines can install.
import fs from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export function findChromium() {
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : CHROMIUM_CANDIDATES;
  return candidates.find((candidate) => fs.existsSync(candidate));
}

export const chromiumArgs = ['--disable-quic', '--enable-unsafe-webgpu'];
