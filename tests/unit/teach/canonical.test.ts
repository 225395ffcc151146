import { describe, expect, it } from 'vitest';
import { base64UrlToText, canonicalJson, fromBase64, parseUntrustedJson, sha256Hex, textToBase64Url, toBase64 } from '@/lib/teach/canonical';

describe('canonical JSON', () => {
  it('sorts keys at every level, keeps array order, writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 'x'], e: { g: true, f: -0.5 } })).toBe('{"a":[{"c":null,"d":2},"x"],"b":1,"e":{"f":-0.5,"g":true}}');
  });

  it('gives the same text for the same content in any key order', () => {
    expect(canonicalJson({ x: 1, y: { p: 1, q: 2 } })).toBe(canonicalJson({ y: { q: 2, p: 1 }, x: 1 }));
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ a: NaN })).toThrow(/no JSON form/);
    expect(() => canonicalJson({ a: undefined })).toThrow(/no JSON form/);
    expect(() => canonicalJson(Infinity)).toThrow(/no JSON form/);
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(await sha256Hex('abc'));
  });
});

describe('base64', () => {
  it('round-trips bytes, checkpoint-sized ones included', () => {
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 7919) % 256);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(toBase64(new Uint8Array([0xff, 0x00, 0x10]))).toBe('/wAQ');
  });

  it('refuses anything but strict padded base64', () => {
    for (const bad of ['abc', 'ab c', 'ab==cd==', '@@@@', 'YQ', 'YQ=']) expect(() => fromBase64(bad), bad).toThrow('not base64');
  });

  it('carries UTF-8 text in a link-safe alphabet', () => {
    const text = 'é ✓ 𝄞 <b>"quoted"</b> ?&#';
    const encoded = textToBase64Url(text);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(base64UrlToText(encoded)).toBe(text);
    expect(() => base64UrlToText('ab+c')).toThrow('not base64url');
    expect(() => base64UrlToText('_w')).toThrow(); // 0xff: not UTF-8
  });
});

describe('parseUntrustedJson', () => {
  it('refuses a "__proto__" key at any depth, by name', () => {
    expect(() => parseUntrustedJson('{"__proto__": {"x": 1}}')).toThrow('"__proto__" key is not allowed');
    expect(() => parseUntrustedJson('{"a": [{"__proto__": 1}]}')).toThrow('"__proto__" key is not allowed');
  });

  it('says when the text is not JSON', () => {
    expect(() => parseUntrustedJson('{"a": 1')).toThrow('not valid JSON');
    expect(parseUntrustedJson('{"constructor": 1}')).toEqual({ constructor: 1 });
  });
});
