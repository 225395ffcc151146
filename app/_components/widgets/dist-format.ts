// How chapter 3's widgets print sizes.

/** GB (10^9 bytes) with sensible digits: 62.4, 1.88, 0.04. */
export function gb(bytes: number): string {
  const v = bytes / 1e9;
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  if (v >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

/** A byte count in the largest fitting unit: 4.0 GB, 12.5 MB, 640 B. */
export function bytesText(bytes: number): string {
  const units: [number, string][] = [
    [1e12, 'TB'],
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [size, unit] of units) if (bytes >= size) return `${(bytes / size).toFixed(bytes / size >= 100 ? 0 : 1)} ${unit}`;
  return `${Math.round(bytes)} B`;
}
