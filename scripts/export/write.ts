/**
 * Writes an exported project into a folder, safely: every path must stay inside the folder (no absolute path, no
 * "..", no symbolic link on the way), a folder that holds anything is refused unless `force`, and the files are
 * written to a fresh temporary folder beside it first, so a failure (a full disk) leaves no half project.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli';

export interface FileToWrite {
  path: string;
  text: string;
}

/** The absolute target of `relative` inside `root`, or a UsageError if it would leave it. */
export function insidePath(root: string, relative: string): string {
  if (relative === '' || path.isAbsolute(relative) || relative.split(/[\\/]/).some((part) => part === '..' || part === '')) {
    throw new UsageError(`refusing to write ${JSON.stringify(relative)}: not a plain relative path`);
  }
  const target = path.resolve(root, relative);
  if (!target.startsWith(root + path.sep)) throw new UsageError(`refusing to write ${JSON.stringify(relative)}: outside ${root}`);
  return target;
}

const lstat = (p: string) => {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** Refuses a symbolic link at `target` or at any folder between `root` and it (it could point anywhere). */
function noLinksOnTheWay(root: string, target: string): void {
  for (let p = target; p !== root && p.startsWith(root + path.sep); p = path.dirname(p)) {
    const stat = lstat(p);
    if (stat?.isSymbolicLink()) throw new UsageError(`refusing to write through the symbolic link ${p}`);
    if (stat && p !== target && !stat.isDirectory()) throw new UsageError(`refusing to write ${target}: ${p} is not a folder`);
    if (stat && p === target && !stat.isFile()) throw new UsageError(`refusing to replace ${p}: it is not a file`);
  }
}

/** Writes `files` into `dir` (created if missing); returns the absolute folder. */
export function writeProject(dir: string, files: readonly FileToWrite[], options: { force: boolean }): string {
  const root = path.resolve(dir);
  const stat = lstat(root);
  if (stat?.isSymbolicLink()) throw new UsageError(`--out ${dir} is a symbolic link: give the folder itself`);
  if (stat && !stat.isDirectory()) throw new UsageError(`--out ${dir} exists and is not a folder`);
  if (stat && fs.readdirSync(root).length > 0 && !options.force) {
    throw new UsageError(`--out ${dir} is not empty: choose an empty or new folder, or add --force to overwrite the project's files in it`);
  }
  const targets = files.map((f) => ({ target: insidePath(root, f.path), text: f.text }));
  if (new Set(targets.map((t) => t.target)).size !== targets.length) throw new Error('two project files have the same path');
  for (const { target } of targets) noLinksOnTheWay(root, target);

  // Everything goes to a temporary folder beside the target first.
  const parent = path.dirname(root);
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, '.trl-export-'));
  try {
    for (const { target, text } of targets) {
      const staged = path.join(staging, path.relative(root, target));
      fs.mkdirSync(path.dirname(staged), { recursive: true });
      fs.writeFileSync(staged, text, { flag: 'wx' });
    }
    if (!stat) {
      fs.renameSync(staging, root); // a new folder appears whole
      return root;
    }
    for (const { target } of targets) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(path.join(staging, path.relative(root, target)), target);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return root;
}
