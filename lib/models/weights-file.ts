/**
 * A compact binary weights file (little-endian throughout):
 *
 *   offset  size  field
 *   0       4     magic "ARLW" (Agentic RL Lab Weights)
 *   4       4     format version (uint32) = 1
 *   8       4     header byte length H (uint32, a multiple of 4)
 *   12      4     CRC-32 of every byte from offset 16 to the end
 *   16      H     JSON header, UTF-8, space-padded: { kind, config, state, tensors: [{ name, shape, dtype, offset }],
 *                 data_bytes }; a tensor's offset is in bytes from the start of the data section
 *   16+H    …     float32 data
 *
 * Reading checks, in order: length, magic, version, header bounds, header JSON and fields, total length, checksum,
 * tensor bounds, finite values. Each failure throws a {@link WeightsFileError} whose message names what is wrong.
 */

export const WEIGHTS_MAGIC = 'ARLW';
export const WEIGHTS_FORMAT_VERSION = 1;
const PREAMBLE = 16;

export class WeightsFileError extends Error {
  constructor(message: string) {
    super(`Invalid weights file: ${message}`);
    this.name = 'WeightsFileError';
  }
}

export interface TensorEntry {
  name: string;
  shape: number[];
  dtype: 'float32';
  offset: number;
}

export interface WeightsHeader {
  /** Which factory reads this file ('tiny-lm', 'actor-critic'). */
  kind: string;
  /** The model's config, enough to rebuild it. */
  config: Record<string, unknown>;
  /** Mutable model state worth restoring (e.g. whether LoRA is merged). */
  state: Record<string, unknown>;
  tensors: TensorEntry[];
  data_bytes: number;
}

export interface NamedArray {
  name: string;
  shape: number[];
  values: Float32Array;
}

export interface WeightsFile {
  kind: string;
  config: Record<string, unknown>;
  state: Record<string, unknown>;
  tensors: NamedArray[];
}

const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/** Writes a weights file. Tensors keep the given order. */
export function encodeWeightsFile(file: WeightsFile, opts: { version?: number } = {}): Uint8Array {
  let offset = 0;
  const entries: TensorEntry[] = file.tensors.map((t) => {
    if (t.values.length !== size(t.shape)) throw new Error(`tensor '${t.name}': ${t.values.length} values for shape [${t.shape}]`);
    const e: TensorEntry = { name: t.name, shape: t.shape, dtype: 'float32', offset };
    offset += 4 * t.values.length;
    return e;
  });
  const header: WeightsHeader = { kind: file.kind, config: file.config, state: file.state, tensors: entries, data_bytes: offset };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const H = Math.ceil(json.length / 4) * 4;
  const bytes = new Uint8Array(PREAMBLE + H + offset);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(WEIGHTS_MAGIC), 0);
  view.setUint32(4, opts.version ?? WEIGHTS_FORMAT_VERSION, true);
  view.setUint32(8, H, true);
  bytes.fill(0x20, PREAMBLE, PREAMBLE + H);
  bytes.set(json, PREAMBLE);
  file.tensors.forEach((t, i) => {
    const base = PREAMBLE + H + entries[i].offset;
    for (let j = 0; j < t.values.length; j++) view.setFloat32(base + 4 * j, t.values[j], true);
  });
  view.setUint32(12, crc32(bytes, PREAMBLE), true);
  return bytes;
}

/** Reads and checks a weights file; throws {@link WeightsFileError} naming the first problem found. */
export function decodeWeightsFile(bytes: Uint8Array): WeightsFile {
  if (bytes.length < PREAMBLE) throw new WeightsFileError(`truncated: ${bytes.length} bytes is shorter than the ${PREAMBLE}-byte preamble`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== WEIGHTS_MAGIC) throw new WeightsFileError(`bad magic bytes ${JSON.stringify(magic)} (expected "${WEIGHTS_MAGIC}"): not an Agentic RL Lab weights file`);
  const version = view.getUint32(4, true);
  if (version !== WEIGHTS_FORMAT_VERSION) {
    throw new WeightsFileError(`unsupported format version ${version} (this build reads version ${WEIGHTS_FORMAT_VERSION})`);
  }
  const H = view.getUint32(8, true);
  if (PREAMBLE + H > bytes.length) throw new WeightsFileError(`truncated: the header needs ${H} bytes but only ${bytes.length - PREAMBLE} follow the preamble`);
  const header = parseHeader(bytes.subarray(PREAMBLE, PREAMBLE + H));
  const expected = PREAMBLE + H + header.data_bytes;
  if (bytes.length < expected) throw new WeightsFileError(`truncated: expected ${expected} bytes, got ${bytes.length}`);
  if (bytes.length > expected) throw new WeightsFileError(`${bytes.length - expected} unexpected bytes after the data`);
  const stored = view.getUint32(12, true);
  const actual = crc32(bytes, PREAMBLE);
  if (stored !== actual) throw new WeightsFileError(`checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)}): the file is corrupt`);

  const tensors = header.tensors.map((t): NamedArray => {
    const n = size(t.shape);
    if (t.offset % 4 !== 0 || t.offset + 4 * n > header.data_bytes) {
      throw new WeightsFileError(`tensor '${t.name}' (offset ${t.offset}, ${n} values) lies outside the data section`);
    }
    const values = new Float32Array(n);
    const base = PREAMBLE + H + t.offset;
    for (let j = 0; j < n; j++) {
      const v = view.getFloat32(base + 4 * j, true);
      if (!Number.isFinite(v)) throw new WeightsFileError(`tensor '${t.name}' holds a non-finite value (${v}) at index ${j}`);
      values[j] = v;
    }
    return { name: t.name, shape: t.shape, values };
  });
  return { kind: header.kind, config: header.config, state: header.state, tensors };
}

function parseHeader(raw: Uint8Array): WeightsHeader {
  let h: unknown;
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new WeightsFileError('the header is not valid UTF-8 JSON');
  }
  const o = h as Partial<WeightsHeader>;
  const fail = (what: string) => {
    throw new WeightsFileError(`header field ${what}`);
  };
  if (typeof o !== 'object' || o == null) fail('(the header is not an object)');
  if (typeof o.kind !== 'string') fail("'kind' is missing or not a string");
  if (typeof o.config !== 'object' || o.config == null) fail("'config' is missing");
  if (typeof o.state !== 'object' || o.state == null) fail("'state' is missing");
  if (!Number.isInteger(o.data_bytes) || o.data_bytes! < 0) fail("'data_bytes' is not a non-negative integer");
  if (!Array.isArray(o.tensors)) fail("'tensors' is not an array");
  const names = new Set<string>();
  for (const t of o.tensors!) {
    if (typeof t?.name !== 'string') fail("'tensors[].name' is not a string");
    if (names.has(t.name)) fail(`'tensors' lists '${t.name}' twice`);
    names.add(t.name);
    if (!Array.isArray(t.shape) || !t.shape.every((d) => Number.isInteger(d) && d >= 0)) fail(`'shape' of '${t.name}' is not a list of sizes`);
    if (t.dtype !== 'float32') fail(`'dtype' of '${t.name}' is ${JSON.stringify(t.dtype)}, only "float32" is supported`);
    if (!Number.isInteger(t.offset) || t.offset < 0) fail(`'offset' of '${t.name}' is not a non-negative integer`);
  }
  return o as WeightsHeader;
}

let crcTable: Uint32Array | undefined; // a pure constant, built on first use

/** CRC-32 (IEEE 802.3) of bytes[from..]. */
export function crc32(bytes: Uint8Array, from = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = from; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
