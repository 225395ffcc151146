// A language model's per-token log-probs and entropies from its logits, forward and backward, with tfjs-wasm's numbers
// bit for bit (AssemblyScript, compiled by `npm run build:kernel` into ../wasm.ts). lib/rl/logprobs.ts computes, stock:
//   z = logits / temperature (when the temperature is not 1)
//   logp = (z − max z) − log Σⱼ exp(zⱼ − max z)          tf.logSoftmax: Max, Sub, Cast, Exp, Sum, Log, Sub
//   logps = Σⱼ logpⱼ · onehot(target)ⱼ                     the pick: OneHot, Cast, Mul, Sum
//   entropy = −Σⱼ exp(logpⱼ) · logpⱼ                       Exp, Mul, Sum, Neg
// and autodiff's backward pass for logps: d logp = (dy · 1) · onehot (Sum's and Mul's gradients), then tf.logSoftmax's
// own gradient d z = d logp − (Σⱼ d logpⱼ) · exp(logp), then ÷ temperature. Some twenty tfjs kernels over [rows, V]
// become five. Each step here is the same float32 operation in the same order: tfjs-wasm's Max keeps the first value
// and replaces it with any later one that is greater, its Sum adds from 0 first element to last, and its Exp and Log
// are musl's expf and logf, as AssemblyScript's Mathf.exp and Mathf.log are, and as expf and logf below are (scripts/probes/libm-match.ts: 0 of
// 4,000,000 differ).
//
// Imports tfjs-wasm's memory (the host, ../logprobs.ts, passes byte offsets on that heap). No static data, no allocation.

// expf and logf as musl computes them (AssemblyScript's std/assembly/util/math.ts, expf_lut and logf_lut, ported here
// with their lookup tables in tfjs-wasm's heap: a module that imports its memory must not carry a data segment, which
// would be copied over tfjs-wasm's own data when it is instantiated). The host allocates TABLE_BYTES, calls
// writeTables once, and passes the address to every kernel.

/** Bytes the tables take: exp2f's 32 doubles, then logf's 16 (1/c, log c) pairs. */
export const TABLE_BYTES: i32 = 512;
const LOG_TAB: usize = 256;

/** Writes the tables at `tab` (TABLE_BYTES, 8-byte aligned). */
export function writeTables(tab: usize): void {
  store<u64>(tab, 0x3FF0000000000000, 0);
  store<u64>(tab, 0x3FEFD9B0D3158574, 8);
  store<u64>(tab, 0x3FEFB5586CF9890F, 16);
  store<u64>(tab, 0x3FEF9301D0125B51, 24);
  store<u64>(tab, 0x3FEF72B83C7D517B, 32);
  store<u64>(tab, 0x3FEF54873168B9AA, 40);
  store<u64>(tab, 0x3FEF387A6E756238, 48);
  store<u64>(tab, 0x3FEF1E9DF51FDEE1, 56);
  store<u64>(tab, 0x3FEF06FE0A31B715, 64);
  store<u64>(tab, 0x3FEEF1A7373AA9CB, 72);
  store<u64>(tab, 0x3FEEDEA64C123422, 80);
  store<u64>(tab, 0x3FEECE086061892D, 88);
  store<u64>(tab, 0x3FEEBFDAD5362A27, 96);
  store<u64>(tab, 0x3FEEB42B569D4F82, 104);
  store<u64>(tab, 0x3FEEAB07DD485429, 112);
  store<u64>(tab, 0x3FEEA47EB03A5585, 120);
  store<u64>(tab, 0x3FEEA09E667F3BCD, 128);
  store<u64>(tab, 0x3FEE9F75E8EC5F74, 136);
  store<u64>(tab, 0x3FEEA11473EB0187, 144);
  store<u64>(tab, 0x3FEEA589994CCE13, 152);
  store<u64>(tab, 0x3FEEACE5422AA0DB, 160);
  store<u64>(tab, 0x3FEEB737B0CDC5E5, 168);
  store<u64>(tab, 0x3FEEC49182A3F090, 176);
  store<u64>(tab, 0x3FEED503B23E255D, 184);
  store<u64>(tab, 0x3FEEE89F995AD3AD, 192);
  store<u64>(tab, 0x3FEEFF76F2FB5E47, 200);
  store<u64>(tab, 0x3FEF199BDD85529C, 208);
  store<u64>(tab, 0x3FEF3720DCEF9069, 216);
  store<u64>(tab, 0x3FEF5818DCFBA487, 224);
  store<u64>(tab, 0x3FEF7C97337B9B5F, 232);
  store<u64>(tab, 0x3FEFA4AFA2A490DA, 240);
  store<u64>(tab, 0x3FEFD0765B6E4540, 248);
  store<u64>(tab, 0x3FF661EC79F8F3BE, 256);
  store<u64>(tab, 0xBFD57BF7808CAADE, 264);
  store<u64>(tab, 0x3FF571ED4AAF883D, 272);
  store<u64>(tab, 0xBFD2BEF0A7C06DDB, 280);
  store<u64>(tab, 0x3FF49539F0F010B0, 288);
  store<u64>(tab, 0xBFD01EAE7F513A67, 296);
  store<u64>(tab, 0x3FF3C995B0B80385, 304);
  store<u64>(tab, 0xBFCB31D8A68224E9, 312);
  store<u64>(tab, 0x3FF30D190C8864A5, 320);
  store<u64>(tab, 0xBFC6574F0AC07758, 328);
  store<u64>(tab, 0x3FF25E227B0B8EA0, 336);
  store<u64>(tab, 0xBFC1AA2BC79C8100, 344);
  store<u64>(tab, 0x3FF1BB4A4A1A343F, 352);
  store<u64>(tab, 0xBFBA4E76CE8C0E5E, 360);
  store<u64>(tab, 0x3FF12358F08AE5BA, 368);
  store<u64>(tab, 0xBFB1973C5A611CCC, 376);
  store<u64>(tab, 0x3FF0953F419900A7, 384);
  store<u64>(tab, 0xBFA252F438E10C1E, 392);
  store<u64>(tab, 0x3FF0000000000000, 400);
  store<u64>(tab, 0, 408);
  store<u64>(tab, 0x3FEE608CFD9A47AC, 416);
  store<u64>(tab, 0x3FAAA5AA5DF25984, 424);
  store<u64>(tab, 0x3FECA4B31F026AA0, 432);
  store<u64>(tab, 0x3FBC5E53AA362EB4, 440);
  store<u64>(tab, 0x3FEB2036576AFCE6, 448);
  store<u64>(tab, 0x3FC526E57720DB08, 456);
  store<u64>(tab, 0x3FE9C2D163A1AA2D, 464);
  store<u64>(tab, 0x3FCBC2860D224770, 472);
  store<u64>(tab, 0x3FE886E6037841ED, 480);
  store<u64>(tab, 0x3FD1058BC8A07EE1, 488);
  store<u64>(tab, 0x3FE767DCF5534862, 496);
  store<u64>(tab, 0x3FD4043057B6EE09, 504);
}

@inline function expf(x: f32, tab: usize): f32 {
  const N: f64 = 32;
  const shift = reinterpret<f64>(0x4338000000000000); // 0x1.8p+52
  const InvLn2N = reinterpret<f64>(0x3ff71547652b82fe) * N;
  const C0 = reinterpret<f64>(0x3fac6af84b912394) / N / N / N;
  const C1 = reinterpret<f64>(0x3fcebfce50fac4f3) / N / N;
  const C2 = reinterpret<f64>(0x3fe62e42ff0c52d6) / N;
  const xd = <f64>x;
  const ix = reinterpret<u32>(x);
  const ux = (ix >> 20) & 0x7ff;
  if (ux >= 0x42b) {
    // |x| >= 88 or x is NaN.
    if (ix == 0xff800000) return 0; // −∞ → 0
    if (ux >= 0x7f8) return x + x; // ∞ or NaN
    if (x > reinterpret<f32>(0x42b17217)) return x * reinterpret<f32>(0x7f000000); // overflow
    if (x < reinterpret<f32>(0xc2cff1b4)) return 0; // underflow
  }
  let z = InvLn2N * xd;
  const kd = <f64>(z + shift);
  const ki = reinterpret<u64>(kd);
  const r = z - (kd - shift);
  let t = load<u64>(tab + ((<usize>ki & 31) << 3));
  t += ki << 47; // 52 − 5 table bits
  const s = reinterpret<f64>(t);
  z = C0 * r + C1;
  let y = C2 * r + 1;
  y += z * (r * r);
  y *= s;
  return <f32>y;
}

@inline function logf(x: f32, tab: usize): f32 {
  const Ln2 = reinterpret<f64>(0x3fe62e42fefa39ef);
  const A0 = reinterpret<f64>(0xbfd00ea348b88334);
  const A1 = reinterpret<f64>(0x3fd5575b0be00b6a);
  const A2 = reinterpret<f64>(0xbfdffffef20a4123);
  let ux = reinterpret<u32>(x);
  if (ux - 0x00800000 >= 0x7f800000 - 0x00800000) {
    // x < 0x1p-126, ∞ or NaN.
    if (ux << 1 == 0) return -Infinity;
    if (ux == 0x7f800000) return x;
    if (ux >> 31 || ux << 1 >= 0xff000000) return (x - x) / (x - x);
    ux = reinterpret<u32>(x * reinterpret<f32>(0x4b000000)); // subnormal: normalise
    ux -= 23 << 23;
  }
  const tmp = ux - 0x3f330000;
  const i = <usize>((tmp >> 19) & 15); // 23 − 4 table bits
  const k = <i32>tmp >> 23;
  const iz = ux - (tmp & (0x1ff << 23));
  const invc = load<f64>(tab + LOG_TAB + (i << 4));
  const logc = load<f64>(tab + LOG_TAB + (i << 4), 8);
  const z = <f64>reinterpret<f32>(iz);
  const r = z * invc - 1;
  const y0 = logc + <f64>k * Ln2;
  const r2 = r * r;
  let y = A1 * r + A2;
  y += A0 * r2;
  y = y * r2 + (y0 + r);
  return <f32>y;
}

/** logp [rows, V] ← log-softmax of x [rows, V] / temperature (the division only when `scaled`). */
export function logSoftmax(x: usize, logp: usize, rows: i32, V: i32, temperature: f32, scaled: bool, tab: usize): void {
  for (let r = 0; r < rows; r++) {
    const row = x + <usize>(r * V) * 4;
    const out = logp + <usize>(r * V) * 4;
    let m = scaled ? load<f32>(row) / temperature : load<f32>(row);
    for (let j = 1; j < V; j++) {
      const z = scaled ? load<f32>(row + <usize>j * 4) / temperature : load<f32>(row + <usize>j * 4);
      if (z > m) m = z;
    }
    let sum: f32 = 0;
    for (let j = 0; j < V; j++) {
      const shifted = (scaled ? load<f32>(row + <usize>j * 4) / temperature : load<f32>(row + <usize>j * 4)) - m;
      store<f32>(out + <usize>j * 4, shifted);
      sum += expf(shifted, tab);
    }
    const lse = logf(sum, tab);
    for (let j = 0; j < V; j++) store<f32>(out + <usize>j * 4, load<f32>(out + <usize>j * 4) - lse);
  }
}

/** dx [rows, V] ← tf.logSoftmax's gradient dy − (Σⱼ dyⱼ)·exp(logp), then ÷ temperature when `scaled`. */
export function logSoftmaxGrad(dy: usize, logp: usize, dx: usize, rows: i32, V: i32, temperature: f32, scaled: bool, tab: usize): void {
  for (let r = 0; r < rows; r++) {
    const d = dy + <usize>(r * V) * 4;
    let sum: f32 = 0;
    for (let j = 0; j < V; j++) sum += load<f32>(d + <usize>j * 4);
    const lp = logp + <usize>(r * V) * 4;
    const out = dx + <usize>(r * V) * 4;
    for (let j = 0; j < V; j++) {
      const g = load<f32>(d + <usize>j * 4) - sum * expf(load<f32>(lp + <usize>j * 4), tab);
      store<f32>(out + <usize>j * 4, scaled ? g / temperature : g);
    }
  }
}

/** logps [rows] ← Σⱼ logp[r, j] · (j = target[r] ? 1 : 0), from 0 first to last (a target outside [0, V) picks 0). */
export function pick(logp: usize, targets: usize, logps: usize, rows: i32, V: i32): void {
  for (let r = 0; r < rows; r++) {
    const t = load<i32>(targets + <usize>r * 4);
    const lp = logp + <usize>(r * V) * 4;
    let sum: f32 = 0;
    for (let j = 0; j < V; j++) sum += load<f32>(lp + <usize>j * 4) * (j == t ? <f32>1 : <f32>0);
    store<f32>(logps + <usize>r * 4, sum);
  }
}

/** dlogp [rows, V] ← (dy[r] · 1) · onehot(target[r]): the pick's Sum and Mul gradients. */
export function pickGrad(dy: usize, targets: usize, dlogp: usize, rows: i32, V: i32): void {
  for (let r = 0; r < rows; r++) {
    const t = load<i32>(targets + <usize>r * 4);
    const g = load<f32>(dy + <usize>r * 4) * <f32>1;
    const out = dlogp + <usize>(r * V) * 4;
    for (let j = 0; j < V; j++) store<f32>(out + <usize>j * 4, g * (j == t ? <f32>1 : <f32>0));
  }
}

/** entropy [rows] ← −(Σⱼ exp(logpⱼ) · logpⱼ), the sum from 0 first to last. */
export function entropy(logp: usize, out: usize, rows: i32, V: i32, tab: usize): void {
  for (let r = 0; r < rows; r++) {
    const lp = logp + <usize>(r * V) * 4;
    let sum: f32 = 0;
    for (let j = 0; j < V; j++) {
      const l = load<f32>(lp + <usize>j * 4);
      sum += expf(l, tab) * l;
    }
    store<f32>(out + <usize>r * 4, -sum);
  }
}
