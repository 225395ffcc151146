/**
 * Due dates with their time zone. A date without one ("2026-12-10T17:00") means a different instant on every machine
 * that reads it, so it is refused; a due date is stored as written, offset included ("2026-12-10T17:00:00+01:00"),
 * and shown with that offset everywhere (builder, students' page, grades), never in the reader's zone alone.
 * No tfjs.
 */

export class DueError extends Error {}

const ZONED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const LOCAL = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * A due date as stored: "YYYY-MM-DDTHH:MM:SS" and its offset ("Z" or "±HH:MM"). Throws a DueError naming the fix
 * for a date without a zone, an impossible date or an offset beyond ±14:00.
 */
export function parseDue(text: string): string {
  const trimmed = text.trim();
  const m = ZONED.exec(trimmed);
  if (!m) {
    if (LOCAL.test(trimmed)) {
      throw new DueError(`${JSON.stringify(trimmed.slice(0, 40))} has no time zone, so it means a different time on every machine: add one, e.g. ${trimmed.length === 10 ? `${trimmed}T23:59` : trimmed.slice(0, 16)}Z (UTC) or ${trimmed.length === 10 ? `${trimmed}T23:59` : trimmed.slice(0, 16)}+01:00`);
    }
    throw new DueError(`not a date with a time and a zone: ${JSON.stringify(trimmed.slice(0, 40))} (write e.g. 2026-12-10T17:00+01:00)`);
  }
  const [, y, mo, d, h, mi, s = '00', zone] = m;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone;
  if (offset !== 'Z') {
    const [oh, om] = offset.slice(1).split(':').map(Number);
    if (om >= 60 || oh * 60 + om > 14 * 60) throw new DueError(`no time zone is ${offset} from UTC (offsets run from -14:00 to +14:00)`);
  }
  const stored = `${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`;
  // Date normalizes "02-30" to March: an impossible date shows up as a different calendar day once read back.
  const date = new Date(stored);
  const back = new Date(date.getTime() + offsetMinutes(offset) * 60_000).toISOString();
  if (Number.isNaN(date.getTime()) || back.slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) throw new DueError(`not a real date and time: ${JSON.stringify(trimmed.slice(0, 40))}`);
  return stored;
}

/** Minutes east of UTC of an offset ("Z", "+05:30", "-08:00"). */
export function offsetMinutes(offset: string): number {
  if (offset === 'Z' || offset === 'z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, m] = offset.slice(1).split(':').map(Number);
  return sign * (h * 60 + m);
}

/** "UTC", "UTC+01:00", "UTC-08:00". */
export const zoneName = (minutes: number) => (minutes === 0 ? 'UTC' : `UTC${minutes > 0 ? '+' : '-'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`);

/** An offset's ISO form: 60 → "+01:00", 0 → "Z". */
export const isoOffset = (minutes: number) => (minutes === 0 ? 'Z' : zoneName(minutes).slice(3));

/**
 * A stored due date in its own zone, as the instructor set it: "2026-12-10 17:00 (UTC+01:00)". Read from the text,
 * not through the reader's clock, so every page and the CLI print the same words.
 */
export function formatDue(due: string): string {
  const m = ZONED.exec(due);
  if (!m) return due;
  const [, y, mo, d, h, mi, , zone] = m;
  return `${y}-${mo}-${d} ${h}:${mi} (${zoneName(offsetMinutes(zone))})`;
}

/** A local date-time as a form gives it ("2026-12-10T17:00") in the zone `minutes` east of UTC, checked: the stored due date. */
export function dueFromLocal(local: string, minutes: number): string {
  return parseDue(`${local}${isoOffset(minutes)}`);
}

/** The form's local date-time and offset of a stored due date (to edit it again). */
export function dueToLocal(due: string): { local: string; minutes: number } | null {
  const m = ZONED.exec(due);
  if (!m) return null;
  return { local: `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}`, minutes: offsetMinutes(m[7]) };
}

/** A span in words, as lateness is reported: "25 min", "2 h 30 min", "3 days". */
export function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days`;
}
