// Serves the static export (out/) for the measuring scripts (bench:lab, measure:js, lighthouse): resolves once the
// server listens, rejects if it exits first (a port in use, no build), and stop() ends it.
import { spawn } from 'node:child_process';

export async function serveOut(port) {
  const server = spawn('node', ['scripts/serve.mjs', 'out'], { env: { ...process.env, PORT: String(port) }, stdio: 'pipe', detached: true });
  await new Promise((resolve, reject) => {
    server.stdout.once('data', resolve);
    server.once('exit', (code) => reject(new Error(`scripts/serve.mjs exited with ${code}`)));
  });
  return { stop: () => process.kill(-server.pid) };
}
