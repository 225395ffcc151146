/**
 * A reader's reward function (lib/tasks/custom-reward.ts): what it returns is checked, its failures become one line,
 * and the examples the editor offers do what their comments say. The examples run in the Node sandbox, as the CLI
 * runs a reward file, and are compared with the lab's own reward functions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { asRewardModule, checkRewardValues, editorScript, REWARD_EXAMPLES, RewardCodeError, sandboxedReward, type RewardExampleName } from '@/lib/tasks/custom-reward';
import { correctnessReward, formatReward, lengthPenalty } from '@/lib/tasks/rewards';

const sandbox = createNodeSandbox();
afterAll(() => sandbox.dispose());

const completions = ['12,5 #### 52', '#### 52', '#### 53', '#### 99', '#### 5', '12,5 #### 52 extra', 'no answer', '#### 052', '12,5 #### 52345'];
const context = { prompts: completions.map(() => '07+45='), answers: completions.map(() => '52'), truncated: completions.map((_, i) => i === 1) };

async function example(name: RewardExampleName) {
  const loaded = await sandbox.load(asRewardModule(REWARD_EXAMPLES[name].source), 'default', 2000);
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  return sandboxedReward((args, ms) => sandbox.call(args, ms))(completions, context);
}

describe('checkRewardValues', () => {
  const texts = ['a', 'b'];
  const refused = (value: unknown) => {
    try {
      checkRewardValues(value, texts);
    } catch (error) {
      expect(error).toBeInstanceOf(RewardCodeError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts one finite number per completion', () => {
    expect(checkRewardValues([0, -1.5], texts)).toEqual([0, -1.5]);
  });

  it('says what is wrong, naming the completion', () => {
    expect(refused(undefined)).toBe('the reward function returned undefined, not an array of 2 numbers (one per completion)');
    expect(refused({ 0: 1 })).toBe('the reward function returned an object, not an array of 2 numbers (one per completion)');
    expect(refused([1])).toBe('the reward function returned 1 values for 2 completions: it must return one number per completion');
    expect(refused([1, '1'])).toBe('the reward function returned string for completion 1 ("b"): every reward must be a number');
    expect(refused([null, 1])).toBe('the reward function returned null for completion 0 ("a"): every reward must be a number');
    expect(refused([1, -Infinity])).toBe('the reward function returned -Infinity for completion 1 ("b"): every reward must be a finite number');
  });
});

describe('the editor’s examples', () => {
  it('correctness, format and length penalty give exactly the lab’s own rewards', async () => {
    expect(await example('correctness')).toEqual(correctnessReward(completions, context));
    expect(await example('format')).toEqual(formatReward(completions, context));
    const penalty = await example('length_penalty');
    lengthPenalty(completions, context).forEach((expected, i) => expect(penalty[i]).toBeCloseTo(expected, 12));
  });

  it('the hackable one pays every over-estimate, as its comment warns', async () => {
    // 52, 52, 53, 99 and 52345 are at least 52; 5 is not; no answer is 0. The true reward pays only the 52s.
    expect(await example('hackable')).toEqual([1, 1, 1, 1, 0, 1, 0, 1, 1]);
    expect(correctnessReward(completions, context)).toEqual([1, 1, 0, 0, 0, 1, 0, 1, 0]);
  });
});

describe('the editor’s code, in the forms its examples and a CLI file suggest', () => {
  const forms: [string, string][] = [
    ['a plain function reward', 'function reward(completions) { return completions.map(() => 1); }'],
    ['export default function', 'export default function (completions) { return completions.map(() => 1); }'],
    ['export default of a named function', 'export default function score(completions) { return completions.map(() => 1); }'],
    ['export default of an arrow', 'export default (completions, ctx) => completions.map(() => 1);'],
    ['a function, then export default by name', 'function reward(completions) { return completions.map(() => 1); }\nexport default reward;'],
  ];
  for (const [name, source] of forms) {
    it(`runs ${name}`, async () => {
      const script = editorScript(source);
      expect(script.source).not.toMatch(/\bexport\b/);
      const loaded = await sandbox.load(script.source, script.entry, 2000);
      expect(loaded.ok).toBe(true);
      expect(await sandbox.call([['a', 'b'], { prompts: ['', ''], answers: ['', ''], truncated: [false, false] }], 2000)).toEqual({ ok: true, value: [1, 1] });
    });
  }

  it('leaves code without export default as it is, calling reward', () => {
    expect(editorScript('function reward() {}')).toEqual({ source: 'function reward() {}', entry: 'reward' });
  });
});
