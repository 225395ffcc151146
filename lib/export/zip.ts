/**
 * A project as one zip (fflate, a maintained zip library): the lab's "Export for TRL" download. Entries sit in a folder
 * named after the project, with a fixed date, so the same settings always give the same bytes.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Project } from './types';

/** 1 January 2020: zip dates start in 1980, and a fixed one keeps the archive reproducible. */
const FIXED_DATE = new Date(Date.UTC(2020, 0, 1));

export function zipProject(project: Project): Uint8Array {
  const entries: Zippable = {};
  for (const file of project.files) entries[`${project.name}/${file.path}`] = [strToU8(file.text), { mtime: FIXED_DATE }];
  return zipSync(entries, { level: 6 });
}
