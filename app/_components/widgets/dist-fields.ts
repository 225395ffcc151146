/**
 * What the reader set in a widget's server-rendered controls before its chunk arrived (islands/Island.tsx): React keeps
 * such DOM values when it hydrates but fires no change event. Reads every `[data-field]` control once, on
 * mount: a select's or text input's value, a checkbox's checked state, and the checked radio of a group.
 */
export function fieldsBeforeHydration(root: HTMLElement | null): Map<string, string | boolean> {
  const out = new Map<string, string | boolean>();
  root?.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-field]').forEach((el) => {
    const name = el.dataset.field!;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') out.set(name, el.checked);
    else if (el instanceof HTMLInputElement && el.type === 'radio') {
      if (el.checked) out.set(name, el.value);
    } else out.set(name, el.value);
  });
  return out;
}

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
