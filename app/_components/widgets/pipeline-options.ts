// The pipeline widget's settings, shared by the build-time default and the browser.
import { SCHEDULES, type Schedule } from '@/lib/dist';

export interface PipelineSettings {
  schedule: Schedule;
  stages: number;
  microbatches: number;
  chunks: number;
}

/** A fraction as the widget prints it: 12.5%. */
export const pct = (f: number) => `${(100 * f).toFixed(1)}%`;

export const STAGE_CHOICES = [2, 3, 4, 6, 8];
export const CHUNK_CHOICES = [2, 3, 4];
export const MAX_MICROBATCHES = 32;
export const SCHEDULE_LABEL: Record<Schedule, string> = { gpipe: 'GPipe', '1f1b': '1F1B', interleaved: 'Interleaved 1F1B' };

/** A setting the widget can draw: interleaving needs m to be a multiple of p (Megatron-LM's rule), so round m up. */
export function normalise(s: PipelineSettings): PipelineSettings {
  if (s.schedule !== 'interleaved' || s.microbatches % s.stages === 0) return s;
  const m = Math.min(Math.ceil(s.microbatches / s.stages) * s.stages, Math.floor(MAX_MICROBATCHES / s.stages) * s.stages);
  return { ...s, microbatches: m };
}

/** What is wrong with settings written in a chapter, or null. */
export function settingsProblem(s: PipelineSettings): string | null {
  if (!SCHEDULES.includes(s.schedule)) return `schedule must be one of ${SCHEDULES.join(', ')}`;
  if (!STAGE_CHOICES.includes(s.stages)) return `stages must be one of ${STAGE_CHOICES.join(', ')}`;
  if (!CHUNK_CHOICES.includes(s.chunks)) return `chunks must be one of ${CHUNK_CHOICES.join(', ')}`;
  if (!(Number.isInteger(s.microbatches) && s.microbatches >= 1 && s.microbatches <= MAX_MICROBATCHES)) return `microbatches must be 1 to ${MAX_MICROBATCHES}`;
  if (s.schedule === 'interleaved' && s.microbatches % s.stages !== 0) return 'the interleaved schedule needs microbatches to be a multiple of stages';
  return null;
}
