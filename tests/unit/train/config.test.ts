import { describe, expect, it } from 'vitest';
import { completeConfigProblem, ConfigError, defaults, fieldProblem, parseAssignment, resolve, settingsAsRun, type Schema } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';

const schema = {
  learning_rate: { kind: 'number', default: 1e-3, min: 0, max: 1, exclusiveMin: true, reason: 'test' },
  num_generations: { kind: 'number', default: 8, min: 2, max: 64, integer: true, reason: 'test' },
  loss_type: { kind: 'choice', default: 'dapo', choices: ['grpo', 'bnpo', 'dr_grpo', 'dapo'], reason: 'test' },
  use_rslora: { kind: 'boolean', default: false, reason: 'test' },
} satisfies Schema;

describe('trainer config', () => {
  it('fills defaults and applies overrides', () => {
    expect(defaults(schema)).toEqual({ learning_rate: 1e-3, num_generations: 8, loss_type: 'dapo', use_rslora: false });
    expect(resolve(schema, { loss_type: 'grpo', num_generations: 4 })).toMatchObject({ loss_type: 'grpo', num_generations: 4 });
  });

  it('reports every problem at once, naming the field and its rule', () => {
    try {
      resolve(schema, { learning_rate: 0, num_generations: 2.5, loss_type: 'ppo', use_rslora: 'yes', beta2: 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/unknown field "beta2"/),
        'learning_rate must be in (0, 1], got 0',
        'num_generations must be an integer, got 2.5',
        'loss_type must be one of grpo | bnpo | dr_grpo | dapo, got "ppo"',
        'use_rslora must be true or false, got "yes"',
      ]);
    }
  });

  it('refuses NaN and Infinity', () => {
    expect(() => resolve(schema, { learning_rate: NaN })).toThrow(/finite number/);
    expect(() => resolve(schema, { learning_rate: Infinity })).toThrow(/finite number/);
  });

  it('parses key=value text into the field type', () => {
    expect(parseAssignment(schema, 'learning_rate=5e-4')).toEqual(['learning_rate', 5e-4]);
    expect(parseAssignment(schema, 'use_rslora=true')).toEqual(['use_rslora', true]);
    expect(parseAssignment(schema, 'loss_type=bnpo')).toEqual(['loss_type', 'bnpo']);
    expect(() => parseAssignment(schema, 'learning_rate=fast')).toThrow(/must be a decimal number/);
    expect(() => parseAssignment(schema, 'learning_rate=')).toThrow(/must be a decimal number/);
    expect(() => parseAssignment(schema, 'nope=1')).toThrow(/unknown field "nope"/);
    expect(() => parseAssignment(schema, 'novalue')).toThrow(/key=value/);
  });

  it('takes numbers only as the site writes them: no hex, binary, plus sign, leading zeros or spaces', () => {
    for (const text of ['0x10', '0b11', '0o7', '+5', '05', '007', ' 5', '5 ', '.5', '5.', '1_000', 'Infinity', '1e400', '--1']) {
      expect(() => parseAssignment(schema, `num_generations=${text}`), text).toThrow(ConfigError);
    }
    for (const [text, value] of [['0', 0], ['16', 16], ['-1', -1], ['0.001', 0.001], ['3e-4', 3e-4], ['1E-7', 1e-7], ['1e+21', 1e21]] as const) {
      expect(parseAssignment(schema, `learning_rate=${text}`)).toEqual(['learning_rate', value]);
      expect(String(value)).toMatch(/^-?(0|[1-9]\d*)(\.\d+)?(e[+-]?\d+)?$/i); // what String(n) writes parses back
    }
  });

  it('never matches inherited names, and quotes long input short', () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => parseAssignment(schema, `${key}=1`), key).toThrow(/unknown field/);
      expect(() => resolve(schema, JSON.parse(`{"${key}": 1}`)), key).toThrow(/unknown field/);
    }
    const message = (() => {
      try {
        parseAssignment(schema, `learning_rate=${'9'.repeat(100_000)}x`);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message!.length).toBeLessThan(200);
  });
});

describe('fields a file predates (absentMeans)', () => {
  const later = {
    ...schema,
    init_from: { kind: 'choice', default: 'sft', choices: ['sft', 'base'], reason: 'test', absentMeans: { value: 'base', reason: 'files written before it ran from base' } },
  } satisfies Schema;
  const old = { learning_rate: 1e-3, num_generations: 8, loss_type: 'dapo', use_rslora: false };

  it('reads a complete config that lacks such a field as complete, and runs it with the declared value, not the default', () => {
    expect(completeConfigProblem(later, old)).toBeNull();
    expect(settingsAsRun(later, old)).toEqual({ ...old, init_from: 'base' });
    expect(old).not.toHaveProperty('init_from'); // the file's own object is left as written
  });

  it('keeps a value the file has, and fills nothing a field without absentMeans lacks', () => {
    expect(settingsAsRun(later, { ...old, init_from: 'sft' })).toEqual({ ...old, init_from: 'sft' });
    const { use_rslora: _, ...lacking } = old;
    expect(settingsAsRun(later, lacking)).toEqual({ ...lacking, init_from: 'base' });
    expect(completeConfigProblem(later, lacking)).toBe('use_rslora is missing');
    expect(completeConfigProblem(schema, lacking)).toBe('use_rslora is missing');
  });

  it('still checks a value the file has', () => {
    expect(completeConfigProblem(later, { ...old, init_from: 'scratch' })).toBe('init_from must be one of sft | base, got "scratch"');
  });

  it('every trainer declares values its own field accepts', () => {
    for (const [name, spec] of Object.entries(TRAINERS)) {
      for (const [key, field] of Object.entries(spec.schema as Schema)) {
        if (field.absentMeans === undefined) continue;
        expect(fieldProblem(spec.schema, key, field.absentMeans.value), `${name}.${key}`).toBeNull();
        expect(field.absentMeans.reason.length, `${name}.${key}`).toBeGreaterThan(10);
      }
    }
  });
});
