// The part of JSON Schema that tool definitions use: type (object, string, number, integer, boolean, array,
// null), properties, required, additionalProperties (false or a schema), enum, items, nested to any depth.
// Every other keyword is ignored. The schema is data: it is read, never compiled or evaluated.
import { describe, isObject, jsonEqual, own, type JsonObject } from './json';

const TYPES: Record<string, (v: unknown) => boolean> = {
  object: isObject,
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
};

const child = (path: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** Reports each place where `value` breaks `schema`, as (path, message). */
export function checkSchema(value: unknown, schema: unknown, path: string, report: (path: string, message: string) => void): void {
  if (schema === false) return report(path, 'no value is allowed here (the schema is false)');
  if (!isObject(schema)) return; // `true`, or not a schema: anything goes

  const type = own(schema, 'type');
  const names = (typeof type === 'string' ? [type] : Array.isArray(type) ? type : []).filter(
    (t): t is string => typeof t === 'string' && Object.hasOwn(TYPES, t),
  );
  if (names.length > 0 && !names.some((t) => TYPES[t](value))) {
    return report(path, `expected ${names.join(' or ')}, got ${describe(value)}`);
  }

  const options = own(schema, 'enum');
  if (Array.isArray(options) && !options.some((o) => jsonEqual(o, value))) {
    report(path, `${show(value)} is not one of ${options.slice(0, 8).map(show).join(', ')}${options.length > 8 ? ', …' : ''}`);
  }

  if (isObject(value)) checkObject(value, schema, path, report);
  if (Array.isArray(value)) {
    const items = own(schema, 'items');
    if (isObject(items) || items === false) value.forEach((v, i) => checkSchema(v, items, `${path}[${i}]`, report));
  }
}

function checkObject(value: JsonObject, schema: JsonObject, path: string, report: (path: string, message: string) => void) {
  const props = own(schema, 'properties');
  const properties = isObject(props) ? props : {};
  const required = own(schema, 'required');
  if (Array.isArray(required)) {
    for (const key of required) {
      if (typeof key === 'string' && !Object.hasOwn(value, key)) report(path, `missing required property ${JSON.stringify(key)}`);
    }
  }
  const extra = own(schema, 'additionalProperties');
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(properties, key)) checkSchema(value[key], properties[key], child(path, key), report);
    else if (extra === false) report(child(path, key), `unexpected property ${JSON.stringify(key)} (additionalProperties is false)`);
    else if (isObject(extra)) checkSchema(value[key], extra, child(path, key), report);
  }
}
