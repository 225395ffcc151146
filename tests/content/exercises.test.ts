/**
 * The exercises as a reader meets them: every worked solution passes its own check against the core, every starter
 * fails it (so a checker that accepts anything would fail here), ids are unique, each exercise sits in its own
 * chapter exactly once, and each statement renders to MathML with no raw TeX left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXERCISE_IDS, exercises, signatureOf } from '@/content/exercises';
import { course } from '@/content/course';
import { compileChapter } from '@/lib/content/compile';
import { checkExercise, drawCases } from '@/lib/exercises/check';
import { expectedValues } from '@/lib/exercises/reference';
import { renderStatement } from '@/lib/exercises/statement';
import { createNodeSandbox } from '@/lib/sandbox/node';
import type { CodeSandbox } from '@/lib/sandbox/outcome';

let sandbox: CodeSandbox;
beforeAll(() => {
  sandbox = createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const expected = (id: string) => async (cases: unknown[][]) => expectedValues(id, cases);

describe('the exercise catalogue', () => {
  it('has at least eight exercises across chapters 2, 4, 5, 6 and 8, with unique ids and the three required ones', () => {
    expect(new Set(EXERCISE_IDS).size).toBe(EXERCISE_IDS.length);
    expect(exercises.map((e) => e.id)).toEqual([...EXERCISE_IDS]); // content/exercise-ids.ts, the light copy, agrees
    expect(exercises.length).toBeGreaterThanOrEqual(8);
    const chapters = new Set<string>(exercises.map((e) => e.chapter));
    for (const slug of ['sft-lora', 'ppo', 'dpo', 'grpo', 'research-2025']) expect(chapters.has(slug), slug).toBe(true);
    const byId = new Map(exercises.map((e) => [e.id as string, e]));
    expect(signatureOf(byId.get('gae')!)).toBe('function gae(rewards, values, gamma, lam)');
    expect(byId.get('gae')!.chapter).toBe('ppo');
    expect(signatureOf(byId.get('dpo-loss')!)).toBe('function dpoLoss(policyChosen, policyRejected, refChosen, refRejected, beta)');
    expect(byId.get('dpo-loss')!.chapter).toBe('dpo');
    expect(signatureOf(byId.get('grpo-advantages')!)).toBe('function grpoAdvantages(rewards, groupSize)');
    expect(byId.get('grpo-advantages')!.chapter).toBe('grpo');
  });

  it('draws the same cases from the same seed, and other cases from another', () => {
    for (const e of exercises) {
      expect(drawCases(e, 7, 5)).toEqual(drawCases(e, 7, 5));
      expect(drawCases(e, 7, 5)).not.toEqual(drawCases(e, 8, 5));
      for (const args of drawCases(e, 7, 5)) expect(args).toHaveLength(e.params.length);
    }
  });

  it('renders each statement with MathML and no raw TeX or Markdown left', () => {
    for (const e of exercises) {
      const html = renderStatement(e.statement);
      expect(html, e.id).toContain('<math');
      expect(html.replace(/<math[\s\S]*?<\/math>/g, ''), e.id).not.toMatch(/\$|\\[a-z]+|`/);
    }
  });

  it('places each exercise in its own chapter, exactly once', async () => {
    const found = new Map<string, string[]>();
    for (const { slug } of course) {
      const chapter = await compileChapter(slug);
      for (const id of chapter.exercises) found.set(id, [...(found.get(id) ?? []), slug]);
    }
    for (const e of exercises) expect(found.get(e.id), e.id).toEqual([e.chapter]);
  }, 120_000);
});

describe.each(exercises.map((e) => [e.id, e] as const))('%s', (id, exercise) => {
  it('its worked solution passes on several seeds', async () => {
    for (const seed of [1, 2, 3]) {
      const result = await checkExercise({ exercise, source: exercise.solution, sandbox, expected: expected(id), seed });
      expect(result, `seed ${seed}`).toMatchObject({ passed: true, total: 20 });
    }
  });

  it('its starter defines the function and fails on a case', async () => {
    const result = await checkExercise({ exercise, source: exercise.starter, sandbox, expected: expected(id), seed: 1 });
    expect(result.passed).toBe(false);
    expect('failed' in result && result.failed.problem).toBeTruthy(); // it ran (no load failure) and got a case wrong
  });
});
