/**
 * The grader page's kept work (app/_components/teach/savedGrades.ts) read back through zod: a row's prediction mark
 * survives a reload, so "made" / "not made" does not vanish from the table after one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAssignment } from '@/lib/teach/assignment';
import { invalidRow, type GradeRow } from '@/lib/teach/grade';
import { loadSavedGrading, saveGrading } from '@/app/_components/teach/savedGrades';
import { GRPO_INPUT } from './fixtures';

const store = new Map<string, string>();
const localStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
afterEach(() => {
  store.clear();
  delete (globalThis as { window?: unknown }).window;
});

describe('kept grading', () => {
  it('keeps each row’s prediction mark across a reload', async () => {
    (globalThis as { window?: unknown }).window = { localStorage };
    const assignment = await createAssignment({ ...GRPO_INPUT, preset: 'default', locked: ['max_steps', 'seed'], askPrediction: true });
    const row = (file: string, prediction: GradeRow['prediction']): GradeRow => ({ ...invalidRow(file, ''), student: file, status: 'ok', prediction });
    const rows = [row('ada.json', { made: true, choice: 'stay', label: 'stay within 10 points of it', problem: '' }), row('bo.json', { made: false, choice: null, label: null, problem: 'prediction.choice: Invalid input' })];
    expect(saveGrading(JSON.stringify(assignment), rows, {})).toBe(true);
    const loaded = await loadSavedGrading();
    expect(loaded?.rows.map((r) => r.prediction)).toEqual(rows.map((r) => r.prediction));
  });
});
