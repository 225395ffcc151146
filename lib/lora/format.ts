// How the calculator and the chapter print these numbers, so that prose and widget agree to the digit.

/** 4587520 → "4,587,520" (no Intl: the same string in Node and every browser). */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`formatCount expects a whole number, got ${n}`);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `−${digits}` : digits;
}

export const GIB = 2 ** 30;

/** Bytes in GiB (2^30 bytes, the unit GPU memory is reported in), two decimals: "1.11 GiB". */
export function formatGiB(bytes: number): string {
  return `${(bytes / GIB).toFixed(2)} GiB`;
}

/** Bytes in MiB, for adapters: "17.50 MiB". */
export function formatMiB(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(2)} MiB`;
}

/** Parameters in billions as model cards print them: 596049920 → "0.596". */
export function billions(n: number, decimals: number): string {
  return (n / 1e9).toFixed(decimals);
}

/** PEFT prints trainable% with four decimals. */
export function formatPercent(p: number): string {
  return `${p.toFixed(4)}%`;
}

/** MiB below one GiB, GiB from there on. */
export function formatBytes(bytes: number): string {
  return bytes < GIB ? formatMiB(bytes) : formatGiB(bytes);
}
