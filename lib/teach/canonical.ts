/**
 * One text per value, and its SHA-256: the content hashes of assignments and submissions. Runs unchanged in a page,
 * a worker and Node ≥ 20 (crypto.subtle, btoa and atob are globals in all three). No tfjs.
 */

/** JSON with the keys of every object sorted and no whitespace, so equal content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`canonicalJson: ${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  throw new Error(`canonicalJson: a ${typeof value} has no JSON form`);
}

/**
 * JSON.parse for files from outside. A "__proto__" key is refused by name: JSON.parse keeps it as an own key, but
 * copying the object (zod does) would turn it into the copy's prototype and hide it from every later check.
 */
export function parseUntrustedJson(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__') throw new TypeError('proto');
      return value;
    });
  } catch (error) {
    throw new Error(error instanceof TypeError && error.message === 'proto' ? 'a "__proto__" key is not allowed' : 'not valid JSON');
  }
  return json;
}

/** SHA-256 of a text (as UTF-8) or of bytes, as 64 lowercase hex digits. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  // Browsers offer crypto.subtle on https:// and localhost pages only.
  if (!globalThis.crypto?.subtle) throw new Error('hashing needs a secure page (https://)');
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: String.fromCharCode(...) of a whole checkpoint would overflow the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 (padded, no whitespace); throws on anything else. */
export function fromBase64(text: string): Uint8Array {
  if (!BASE64.test(text)) throw new Error('not base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A text (UTF-8) as unpadded base64url, for a link. */
export function textToBase64Url(text: string): string {
  return toBase64(new TextEncoder().encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The inverse of textToBase64Url; throws on bad characters or bytes that are not UTF-8. */
export function base64UrlToText(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) throw new Error('not base64url');
  const padded = encoded.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (encoded.length % 4)) % 4);
  return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(padded));
}
