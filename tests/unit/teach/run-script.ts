import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/<script>.ts` as a teacher or student would (`npm run assign|train|grade -- …`), in a child process, and
 * resolves with its exit code (null when it was killed, e.g. past `timeoutMs`) and output, never rejecting: the CLI
 * tests assert on refusals as much as on success.
 */
export function runScript(script: string, args: string[], { timeoutMs = 120_000, maxBuffer = 10_000_000 } = {}): Promise<ScriptResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { encoding: 'utf8', timeout: timeoutMs, maxBuffer }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A fresh temporary folder for one test file's assignments and hand-ins, and a path inside it. */
export function scratchDir(prefix: string): (name: string) => string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return (name: string) => path.join(dir, name);
}
