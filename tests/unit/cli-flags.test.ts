/** The command lines' shared flag readers (scripts/cli.ts). */
import { describe, expect, it } from 'vitest';
import { namesFlag, UsageError } from '@/scripts/cli';

describe('namesFlag', () => {
  const known = ['grpo', 'ppo', 'vision'];
  it('reads a comma list, spaces allowed, and means all of them when absent', () => {
    expect(namesFlag('--labs', 'vision, grpo', known)).toEqual(['vision', 'grpo']);
    expect(namesFlag('--labs', undefined, known)).toEqual(known);
  });
  it('refuses a name it does not know, naming the flag and the known ones', () => {
    expect(() => namesFlag('--labs', 'grpo,__proto__', known)).toThrow(UsageError);
    expect(() => namesFlag('--labs', 'grpo,nope', known)).toThrow('--labs: unknown "nope" (known: grpo, ppo, vision)');
  });
});
