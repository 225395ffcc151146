/**
 * musl's expf in JavaScript, bit for bit: tfjs-wasm's Exp kernel is this function (emscripten's libc is musl), and so
 * are AssemblyScript's Mathf.exp and the log-prob kernel's expf (../models/logprob-kernel/assembly/index.ts, whose
 * table this is). Float32 in, float32 out; the arithmetic between is float64, as musl's is. A test compares it with
 * tf.exp on the wasm backend over a million float32 values and the special cases.
 */

// exp2f's table, 2^(i/32) with i/32 · 2^52 taken off its bits (musl's EXP2F_TABLE_BITS = 5), as high and low words.
const TABLE_HI = new Uint32Array([
  0x3ff00000, 0x3fefd9b0, 0x3fefb558, 0x3fef9301, 0x3fef72b8, 0x3fef5487, 0x3fef387a, 0x3fef1e9d, 0x3fef06fe,
  0x3feef1a7, 0x3feedea6, 0x3feece08, 0x3feebfda, 0x3feeb42b, 0x3feeab07, 0x3feea47e, 0x3feea09e, 0x3fee9f75,
  0x3feea114, 0x3feea589, 0x3feeace5, 0x3feeb737, 0x3feec491, 0x3feed503, 0x3feee89f, 0x3feeff76, 0x3fef199b,
  0x3fef3720, 0x3fef5818, 0x3fef7c97, 0x3fefa4af, 0x3fefd076,
]);
const TABLE_LO = new Uint32Array([
  0x00000000, 0xd3158574, 0x6cf9890f, 0xd0125b51, 0x3c7d517b, 0x3168b9aa, 0x6e756238, 0xf51fdee1, 0x0a31b715,
  0x373aa9cb, 0x4c123422, 0x6061892d, 0xd5362a27, 0x569d4f82, 0xdd485429, 0xb03a5585, 0x667f3bcd, 0xe8ec5f74,
  0x73eb0187, 0x994cce13, 0x422aa0db, 0xb0cdc5e5, 0x82a3f090, 0xb23e255d, 0x995ad3ad, 0xf2fb5e47, 0xdd85529c,
  0xdcef9069, 0xdcfba487, 0x337b9b5f, 0xa2a490da, 0x5b6e4540,
]);

const bits = new ArrayBuffer(8);
const asF64 = new Float64Array(bits);
const asU32 = new Uint32Array(bits); // little-endian: [low word, high word]
const asF32 = new Float32Array(bits, 0, 1);

/** The float64 with these high and low words (musl writes its constants as bit patterns). */
function fromBits(hi: number, lo: number): number {
  asU32[0] = lo;
  asU32[1] = hi;
  return asF64[0];
}

const N = 32;
const SHIFT = fromBits(0x43380000, 0x00000000); // 0x1.8p52
const INV_LN2_N = fromBits(0x3ff71547, 0x652b82fe) * N;
const C0 = fromBits(0x3fac6af8, 0x4b912394) / N / N / N;
const C1 = fromBits(0x3fcebfce, 0x50fac4f3) / N / N;
const C2 = fromBits(0x3fe62e42, 0xff0c52d6) / N;
const OVERFLOW = Math.fround(88.72283172607422); // 0x42b17217
const UNDERFLOW = Math.fround(-103.97207641601562); // 0xc2cff1b4

/** expf(x) for a float32 x (a number that Math.fround leaves unchanged), as a float32 number. */
export function expf(x: number): number {
  asF32[0] = x;
  const ix = asU32[0];
  const ux = (ix >>> 20) & 0x7ff;
  if (ux >= 0x42b) {
    // |x| ≥ 88 or x is NaN.
    if (ix === 0xff800000) return 0; // −∞
    if (ux >= 0x7f8) return x + x; // ∞ or NaN
    if (x > OVERFLOW) return Infinity;
    if (x < UNDERFLOW) return 0;
  }
  let z = INV_LN2_N * x;
  const kd = z + SHIFT;
  asF64[0] = kd;
  const ki = asU32[0]; // the low word of kd's bits: k in its low bits
  const r = z - (kd - SHIFT);
  const i = ki & 31;
  asU32[0] = TABLE_LO[i];
  asU32[1] = (TABLE_HI[i] + (ki << 15)) >>> 0; // t += ki << 47, which leaves the low word alone
  const s = asF64[0];
  z = C0 * r + C1;
  let y = C2 * r + 1;
  y += z * (r * r);
  y *= s;
  return Math.fround(y);
}
