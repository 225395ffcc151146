import { describe, expect, it } from 'vitest';
import { createProgressStore, PROGRESS_STORAGE_KEY } from '@/lib/progress/store';
import { PROGRESS_VERSION } from '@/lib/progress/data';
import { parseStoredProgress } from '@/lib/progress/schema';

/** An in-memory Storage, so each test has its own "device". */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

async function storeOn(storage: MemoryStorage) {
  const store = createProgressStore(() => storage);
  await store.persist.rehydrate();
  return store;
}

describe('progress store', () => {
  it('records opened and completed chapters and quiz answers, and restores them on a new visit', async () => {
    const storage = new MemoryStorage();
    const first = await storeOn(storage);
    first.getState().markOpened('ppo', 1000);
    first.getState().markOpened('ppo', 2000); // reopening keeps the first time but moves "last visited"
    first.getState().setCompleted('ppo', true, 3000);
    first.getState().answerQuiz('ch04-clip', 2, true, 4000);

    const second = await storeOn(storage);
    const state = second.getState();
    expect(state.chapters.ppo).toEqual({ openedAt: 1000, completedAt: 3000 });
    expect(state.quizzes['ch04-clip']).toEqual({ choice: 2, correct: true, at: 4000 });
    expect(state.lastVisited).toEqual({ slug: 'ppo', at: 2000 });
  });

  it('keeps what was stored and what changed while it was being read (a quiz answered before hydration)', async () => {
    const storage = new MemoryStorage();
    (await storeOn(storage)).getState().setCompleted('ppo', true, 1000);
    const store = createProgressStore(() => storage);
    const reading = store.persist.rehydrate(); // the checks load asynchronously
    store.getState().answerQuiz('ch04-clip', 1, false, 2000);
    expect(store.getState().quizzes['ch04-clip']).toEqual({ choice: 1, correct: false, at: 2000 }); // shown at once
    expect(JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!).state.quizzes).toEqual({}); // not written over the stored progress
    await reading;
    for (const state of [store.getState(), (await storeOn(storage)).getState()]) {
      expect(state.chapters.ppo?.completedAt).toBe(1000);
      expect(state.quizzes['ch04-clip']).toEqual({ choice: 1, correct: false, at: 2000 });
    }
  });

  it('keeps a quiz answered right as right when another option is tried afterwards, even before hydration', async () => {
    const storage = new MemoryStorage();
    const first = await storeOn(storage);
    first.getState().answerQuiz('ch04-clip', 2, false, 1);
    first.getState().answerQuiz('ch04-clip', 1, true, 2);
    first.getState().answerQuiz('ch04-clip', 0, false, 3);
    expect(first.getState().quizzes['ch04-clip']).toEqual({ choice: 1, correct: true, at: 2 });
    const second = createProgressStore(() => storage);
    const reading = second.persist.rehydrate();
    second.getState().answerQuiz('ch04-clip', 3, false, 4); // before the stored right answer is read
    await reading;
    expect(second.getState().quizzes['ch04-clip']).toEqual({ choice: 1, correct: true, at: 2 });
  });

  it('records the labs trained to the end, with each preset once, and keeps them across visits', async () => {
    const storage = new MemoryStorage();
    const store = await storeOn(storage);
    store.getState().finishLab('grpo', 'default', 5);
    store.getState().finishLab('grpo', 'lr_too_high', 6);
    store.getState().finishLab('grpo', 'default', 7);
    expect(store.getState().labs?.grpo).toEqual({ finishedAt: 7, presets: ['default', 'lr_too_high'] });
    expect((await storeOn(storage)).getState().labs).toEqual({ grpo: { finishedAt: 7, presets: ['default', 'lr_too_high'] } });
    store.getState().reset();
    expect(store.getState().labs).toBeUndefined();
  });

  it('reads version 2 progress (no labs) and refuses a hand-edited lab entry', () => {
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, exercises: {} }, 2)).toEqual({ chapters: {}, quizzes: {}, exercises: {} });
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, labs: { grpo: { finishedAt: 1, presets: ['default'] } } }, 2)).toEqual({ chapters: {}, quizzes: {} });
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, labs: { grpo: { finishedAt: 1, presets: ['default'] } } }, 3).labs).toEqual({ grpo: { finishedAt: 1, presets: ['default'] } });
    for (const labs of [{ grpo: { finishedAt: 1, presets: ['<script>'] } }, { grpo: { finishedAt: -1, presets: [] } }, { grpo: { finishedAt: 1, presets: 'default' } }, { 'Bad Slug': { finishedAt: 1, presets: [] } }]) {
      expect(parseStoredProgress({ chapters: {}, quizzes: {}, labs }, 3)).toEqual({ chapters: {}, quizzes: {} });
    }
  });

  it('records predictions by claim: how many made, how many matched the run, and the last; keeps them across visits', async () => {
    const storage = new MemoryStorage();
    const store = await storeOn(storage);
    store.getState().recordPrediction('grpo', 'grpo-lifts-accuracy', 'rise', 'matched', 5);
    store.getState().recordPrediction('grpo', 'grpo-lifts-accuracy', 'fall', 'missed', 6);
    store.getState().recordPrediction('grpo', 'grpo-lifts-accuracy', 'rise', 'unsettled', 7);
    const expected = { 'grpo-lifts-accuracy': { lab: 'grpo', made: 3, matched: 1, choice: 'rise', outcome: 'unsettled', at: 7 } };
    expect(store.getState().predictions).toEqual(expected);
    expect((await storeOn(storage)).getState().predictions).toEqual(expected);
    store.getState().reset();
    expect(store.getState().predictions).toBeUndefined();
  });

  it('reads version 3 progress (no predictions) and refuses a hand-edited prediction', () => {
    const record = { lab: 'grpo', made: 2, matched: 1, choice: 'rise', outcome: 'matched', at: 3 };
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, labs: {} }, 3)).toEqual({ chapters: {}, quizzes: {}, labs: {} });
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, predictions: { 'grpo-lifts-accuracy': record } }, 3)).toEqual({ chapters: {}, quizzes: {} });
    expect(parseStoredProgress({ chapters: {}, quizzes: {}, predictions: { 'grpo-lifts-accuracy': record } }, 4).predictions).toEqual({ 'grpo-lifts-accuracy': record });
    for (const bad of [{ ...record, matched: 3 }, { ...record, outcome: 'right' }, { ...record, choice: '<b>' }, { ...record, lab: 'Bad Lab' }, { ...record, made: -1 }, { ...record, extra: 1 }]) {
      expect(parseStoredProgress({ chapters: {}, quizzes: {}, predictions: { 'grpo-lifts-accuracy': bad } }, 4)).toEqual({ chapters: {}, quizzes: {} });
    }
  });

  it('can un-complete a chapter', async () => {
    const store = await storeOn(new MemoryStorage());
    store.getState().setCompleted('dpo', true, 10);
    store.getState().setCompleted('dpo', false, 20);
    expect(store.getState().chapters.dpo?.completedAt).toBeUndefined();
  });

  it('reset forgets everything, in memory and on the device', async () => {
    const storage = new MemoryStorage();
    const store = await storeOn(storage);
    store.getState().markOpened('grpo', 5);
    store.getState().answerQuiz('ch06-kl', 0, false, 6);
    store.getState().reset();
    expect(store.getState().chapters).toEqual({});
    expect(store.getState().quizzes).toEqual({});
    expect(store.getState().lastVisited).toBeUndefined();
    const again = await storeOn(storage);
    expect(again.getState().chapters).toEqual({});
  });

  it('discards unreadable JSON and removes it from storage', async () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_STORAGE_KEY, '{"state": {"chapters": ');
    const store = await storeOn(storage);
    expect(store.getState().chapters).toEqual({});
    expect(storage.getItem(PROGRESS_STORAGE_KEY)).toBeNull();
    store.getState().markOpened('ppo', 1);
    expect(JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!).state.chapters.ppo.openedAt).toBe(1);
  });

  it.each([
    ['a value of the wrong shape', { state: { chapters: { ppo: { openedAt: 'yesterday' } }, quizzes: {} }, version: PROGRESS_VERSION }],
    ['an outdated version', { state: { chapters: { ppo: { openedAt: 1 } }, quizzes: {} }, version: 0 }],
    ['a value that is not an object', 42],
    ['a prototype-polluting key', `{"state":{"chapters":{"__proto__":{"polluted":true}},"quizzes":{}},"version":${PROGRESS_VERSION}}`],
  ])('discards %s without breaking', async (_label, stored) => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_STORAGE_KEY, typeof stored === 'string' ? stored : JSON.stringify(stored));
    const store = await storeOn(storage);
    expect(store.getState().chapters).toEqual({});
    expect(store.getState().quizzes).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    store.getState().markOpened('dpo', 7); // and it keeps working
    expect(store.getState().chapters.dpo?.openedAt).toBe(7);
  });

  it('keeps a valid stored value', async () => {
    const storage = new MemoryStorage();
    const stored = { state: { chapters: { ppo: { openedAt: 1 } }, quizzes: { 'ch04-a': { choice: 1, correct: false, at: 2 } } }, version: PROGRESS_VERSION };
    storage.setItem(PROGRESS_STORAGE_KEY, JSON.stringify(stored));
    const store = await storeOn(storage);
    expect(store.getState().chapters.ppo?.openedAt).toBe(1);
    expect(store.getState().quizzes['ch04-a']?.choice).toBe(1);
  });

  it('keeps working in memory when the device refuses writes', async () => {
    const storage = new MemoryStorage();
    storage.failWrites = true;
    const store = await storeOn(storage);
    expect(() => store.getState().markOpened('ppo', 1)).not.toThrow();
    expect(store.getState().chapters.ppo?.openedAt).toBe(1);
  });

  it('tells its subscribers when stored progress has been read, and stays read while another tab\'s progress is re-read', async () => {
    const storage = new MemoryStorage();
    (await storeOn(storage)).getState().markOpened('ppo', 1);
    const store = createProgressStore(() => storage);
    const heardReady: boolean[] = [];
    store.subscribe(() => heardReady.push(store.persist.hasHydrated()));
    expect(store.persist.hasHydrated()).toBe(false);
    await store.persist.rehydrate();
    expect(heardReady.at(-1)).toBe(true); // a hook reading only "ready" re-renders
    const rereading = store.persist.rehydrate();
    expect(store.persist.hasHydrated()).toBe(true); // no flash of "not read yet" while the other tab's write is read
    await rereading;
    expect(store.getState().chapters.ppo?.openedAt).toBe(1);
  });

  it('works with no storage at all (server rendering, blocked storage)', async () => {
    const store = createProgressStore(() => undefined);
    await store.persist.rehydrate();
    store.getState().answerQuiz('ch01-x', 1, true, 3);
    expect(store.getState().quizzes['ch01-x']?.correct).toBe(true);
  });
});

describe('stored progress validation', () => {
  const valid = { chapters: { ppo: { openedAt: 1, completedAt: 2 } }, quizzes: { 'ch04-a': { choice: 1, correct: true, at: 3 } }, lastVisited: { slug: 'ppo', at: 4 } };

  it('accepts exactly the current shape', () => {
    expect(parseStoredProgress(valid, PROGRESS_VERSION)).toEqual(valid);
    expect(parseStoredProgress({ chapters: {}, quizzes: {} }, PROGRESS_VERSION)).toEqual({ chapters: {}, quizzes: {} });
  });

  it.each([
    ['a non-integer time', { ...valid, chapters: { ppo: { openedAt: 1.5 } } }],
    ['a negative time', { ...valid, lastVisited: { slug: 'ppo', at: -1 } }],
    ['an unknown field', { ...valid, extra: true }],
    ['an unknown chapter field', { ...valid, chapters: { ppo: { openedAt: 1, score: 3 } } }],
    ['a bad chapter key', { ...valid, chapters: { 'Bad Key': {} } }],
    ['a bad quiz id', { ...valid, quizzes: { q1: { choice: 0, correct: true, at: 1 } } }],
    ['a non-boolean correctness', { ...valid, quizzes: { 'ch04-a': { choice: 0, correct: 'yes', at: 1 } } }],
    ['an array for chapters', { ...valid, chapters: [] }],
    ['a missing quizzes record', { chapters: {} }],
  ])('rejects %s', (_label, value) => {
    expect(parseStoredProgress(value, PROGRESS_VERSION)).toEqual({ chapters: {}, quizzes: {} });
  });

  it('rejects any other version', () => {
    expect(parseStoredProgress(valid, PROGRESS_VERSION + 1)).toEqual({ chapters: {}, quizzes: {} });
  });
});

describe('progress made in another tab', () => {
  it('reaches a store already hydrated when it reads storage again: what the page calls on storage and pageshow (the listeners themselves: lab-flows.spec.ts)', async () => {
    const storage = new MemoryStorage();
    const path = await storeOn(storage); // /path/, open in one tab
    const lab = await storeOn(storage); // a lab, trained to the end in another
    let heard = 0;
    path.subscribe(() => (heard += 1));
    lab.getState().finishLab('vision', 'default', 9);
    expect(path.getState().labs?.vision).toBeUndefined();
    await path.persist.rehydrate();
    expect(path.getState().labs?.vision).toEqual({ finishedAt: 9, presets: ['default'] });
    expect(heard).toBeGreaterThan(0);
    // And what that page records afterwards keeps the other tab's progress.
    path.getState().finishLab('grpo', 'default', 10);
    expect(Object.keys((await storeOn(storage)).getState().labs ?? {}).sort()).toEqual(['grpo', 'vision']);
  });
});
