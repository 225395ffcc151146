// Input checks for the numeric face: plain arrays from widgets and tests, clear messages.

export function finiteArray(fn: string, name: string, a: unknown, len?: number, allowNaN = false): number[] {
  if (!Array.isArray(a)) throw new Error(`${fn}: ${name} must be an array of numbers`);
  if (len !== undefined && a.length !== len) throw new Error(`${fn}: ${name} has length ${a.length}, expected ${len}`);
  a.forEach((v, i) => {
    const ok = typeof v === 'number' && (Number.isFinite(v) || (allowNaN && Number.isNaN(v)));
    if (!ok) {
      throw new Error(`${fn}: ${name}[${i}] must be a finite number${allowNaN ? ' or NaN' : ''}, got ${String(v)}`);
    }
  });
  return a as number[];
}

/** A rectangular [rows][cols] matrix; `shape` pins both dimensions when given. */
export function matrix(
  fn: string,
  name: string,
  a: unknown,
  shape?: [number, number],
  allowNaN = false,
): number[][] {
  if (!Array.isArray(a) || a.length === 0) throw new Error(`${fn}: ${name} must be a non-empty array of rows`);
  if (shape && a.length !== shape[0]) throw new Error(`${fn}: ${name} has ${a.length} rows, expected ${shape[0]}`);
  const cols = shape ? shape[1] : Array.isArray(a[0]) ? a[0].length : -1;
  if (cols < 1) throw new Error(`${fn}: ${name} rows must be non-empty arrays`);
  a.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== cols) {
      const got = Array.isArray(row) ? `length ${row.length}` : 'no array';
      const what = shape ? `must be [${shape}]` : 'is ragged';
      throw new Error(`${fn}: ${name} ${what}: row ${i} has ${got}, expected length ${cols}`);
    }
    finiteArray(fn, `${name}[${i}]`, row, cols, allowNaN);
  });
  return a as number[][];
}

export function binaryMatrix(fn: string, name: string, a: unknown, shape: [number, number]): number[][] {
  const m = matrix(fn, name, a, shape);
  m.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v !== 0 && v !== 1) throw new Error(`${fn}: ${name}[${i}][${j}] must be 0 or 1, got ${v}`);
    }),
  );
  return m;
}

export function shapeOf(m: number[][]): [number, number] {
  return [m.length, m[0].length];
}
