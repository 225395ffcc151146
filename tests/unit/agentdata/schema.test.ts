import { describe, expect, it } from 'vitest';
import { checkSchema } from '@/lib/agentdata/schema';

const problems = (value: unknown, schema: unknown) => {
  const out: string[] = [];
  checkSchema(value, schema, 'args', (path, message) => out.push(`${path}: ${message}`));
  return out;
};

describe('the JSON Schema subset of tool parameters', () => {
  it('checks each type, integer apart from number', () => {
    expect(problems('x', { type: 'string' })).toEqual([]);
    expect(problems(3, { type: 'integer' })).toEqual([]);
    expect(problems(3.5, { type: 'integer' })).toEqual(['args: expected integer, got a number']);
    expect(problems(3.5, { type: 'number' })).toEqual([]);
    expect(problems(true, { type: 'boolean' })).toEqual([]);
    expect(problems(null, { type: 'null' })).toEqual([]);
    expect(problems([], { type: 'array' })).toEqual([]);
    expect(problems([], { type: 'object' })).toEqual(['args: expected object, got an array']);
    expect(problems(null, { type: 'object' })).toEqual(['args: expected object, got null']);
    expect(problems('1', { type: 'number' })).toEqual(['args: expected number, got a string']);
    expect(problems(null, { type: ['string', 'null'] })).toEqual([]);
    expect(problems(1, { type: ['string', 'null'] })).toEqual(['args: expected string or null, got an integer']);
  });

  it('checks required, properties and additionalProperties (false or a schema), nested', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        when: { type: 'object', properties: { day: { type: 'integer' } }, required: ['day'], additionalProperties: false },
      },
      required: ['city'],
      additionalProperties: false,
    };
    expect(problems({ city: 'Oslo', when: { day: 3 } }, schema)).toEqual([]);
    expect(problems({ when: { day: 'Monday', hour: 9 } }, schema)).toEqual([
      'args: missing required property "city"',
      'args.when.day: expected integer, got a string',
      'args.when.hour: unexpected property "hour" (additionalProperties is false)',
    ]);
    expect(problems({ 'odd key': 1 }, { type: 'object', additionalProperties: { type: 'string' } })).toEqual(['args["odd key"]: expected string, got an integer']);
    expect(problems({ anything: 1 }, { type: 'object', properties: {} })).toEqual([]); // additionalProperties defaults to allowed
  });

  it('checks enum by JSON equality, and items of arrays', () => {
    expect(problems('celsius', { enum: ['celsius', 'fahrenheit'] })).toEqual([]);
    expect(problems('kelvin', { type: 'string', enum: ['celsius', 'fahrenheit'] })).toEqual(['args: "kelvin" is not one of "celsius", "fahrenheit"']);
    expect(problems({ a: [1] }, { enum: [{ a: [1] }] })).toEqual([]);
    expect(problems([1, 'two', 3], { type: 'array', items: { type: 'integer' } })).toEqual(['args[1]: expected integer, got a string']);
    expect(problems([{ id: 1 }, {}], { type: 'array', items: { type: 'object', required: ['id'] } })).toEqual(['args[1]: missing required property "id"']);
  });

  it('ignores keywords outside the subset and accepts anything under `true` or a non-schema', () => {
    expect(problems('abc', { type: 'string', minLength: 10, pattern: '^x', format: 'email', description: 'd' })).toEqual([]);
    expect(problems(42, true)).toEqual([]);
    expect(problems(42, { type: 'quaternion' })).toEqual([]);
    expect(problems(42, false)).toEqual(['args: no value is allowed here (the schema is false)']);
  });

  it('reads only own keys: a schema without "type" does not inherit one, required "toString" is not met by the prototype', () => {
    expect(problems({}, { required: ['toString', 'valueOf'] })).toEqual(['args: missing required property "toString"', 'args: missing required property "valueOf"']);
    expect(problems({ constructor: 'x' }, { type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] })).toEqual([]);
    expect(problems({ constructor: 1 }, { type: 'object', properties: { constructor: { type: 'string' } } })).toEqual(['args.constructor: expected string, got an integer']);
  });
});
