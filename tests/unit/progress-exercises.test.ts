/**
 * Exercise passes in the reader's progress: kept with the code that passed, written and read back, and older stored
 * progress (version 1, before exercises) still read rather than lost.
 */
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_SOURCE, PROGRESS_VERSION } from '@/lib/progress/data';
import { parseStoredProgress } from '@/lib/progress/schema';
import { createProgressStore, PROGRESS_STORAGE_KEY } from '@/lib/progress/store';

class MemoryStorage {
  data = new Map<string, string>();
  getItem = (k: string) => this.data.get(k) ?? null;
  setItem = (k: string, v: string) => void this.data.set(k, v);
  removeItem = (k: string) => void this.data.delete(k);
}

const storeOn = async (storage: MemoryStorage) => {
  const store = createProgressStore(() => storage as unknown as Storage);
  await store.persist.rehydrate();
  return store;
};

describe('exercise passes in progress', () => {
  it('are stored with their source and survive a reload (a fresh store on the same storage)', async () => {
    const storage = new MemoryStorage();
    const store = await storeOn(storage);
    store.getState().passExercise('gae', 'function gae() {}', 5);
    const written = JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!);
    expect(written.version).toBe(PROGRESS_VERSION);
    expect(written.state.exercises).toEqual({ gae: { passedAt: 5, source: 'function gae() {}' } });
    const again = await storeOn(storage);
    expect(again.getState().exercises?.gae).toEqual({ passedAt: 5, source: 'function gae() {}' });
    again.getState().reset();
    expect(again.getState().exercises).toBeUndefined();
  });

  it('keeps version-1 progress (written before exercises existed)', async () => {
    const storage = new MemoryStorage();
    const v1 = { chapters: { ppo: { openedAt: 1, completedAt: 2 } }, quizzes: { 'ch04-a': { choice: 1, correct: true, at: 3 } }, lastVisited: { slug: 'ppo', at: 4 } };
    storage.setItem(PROGRESS_STORAGE_KEY, JSON.stringify({ state: v1, version: 1 }));
    const store = await storeOn(storage);
    expect(store.getState().chapters.ppo?.completedAt).toBe(2);
    expect(store.getState().quizzes['ch04-a']?.correct).toBe(true);
    store.getState().passExercise('dpo-loss', 'x', 9);
    const written = JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!);
    expect(written).toMatchObject({ version: PROGRESS_VERSION, state: { chapters: v1.chapters, exercises: { 'dpo-loss': { passedAt: 9, source: 'x' } } } });
  });

  it.each([
    ['exercises in a version-1 value', { chapters: {}, quizzes: {}, exercises: {} }, 1],
    ['a pass with no time', { chapters: {}, quizzes: {}, exercises: { gae: { source: '' } } }, PROGRESS_VERSION],
    ['a pass with an extra field', { chapters: {}, quizzes: {}, exercises: { gae: { passedAt: 1, source: '', score: 1 } } }, PROGRESS_VERSION],
    ['a bad exercise id', { chapters: {}, quizzes: {}, exercises: { 'Bad Id': { passedAt: 1, source: '' } } }, PROGRESS_VERSION],
    ['a source that is not text', { chapters: {}, quizzes: {}, exercises: { gae: { passedAt: 1, source: 7 } } }, PROGRESS_VERSION],
    ['an over-long source', { chapters: {}, quizzes: {}, exercises: { gae: { passedAt: 1, source: 'x'.repeat(MAX_KEPT_SOURCE + 1) } } }, PROGRESS_VERSION],
    ['a proto key', JSON.parse('{"chapters":{},"quizzes":{},"exercises":{"__proto__":{"passedAt":1,"source":""}}}'), PROGRESS_VERSION],
  ])('discards %s', (_label, value, version) => {
    expect(parseStoredProgress(value, version)).toEqual({ chapters: {}, quizzes: {} });
  });

  it('accepts a valid pass', () => {
    const value = { chapters: {}, quizzes: {}, exercises: { gae: { passedAt: 1, source: 'function gae() {}' } } };
    expect(parseStoredProgress(value, PROGRESS_VERSION)).toEqual(value);
  });

  it('does not keep code longer than the checker accepts', async () => {
    const store = await storeOn(new MemoryStorage());
    store.getState().passExercise('gae', 'x'.repeat(MAX_KEPT_SOURCE + 1));
    expect(store.getState().exercises).toBeUndefined();
  });
});
