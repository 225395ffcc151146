/** A metric value as charts and tables print it: whole numbers from 100, two decimals from 1, else 3 significant digits. */
export const formatValue = (v: number) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));

/** A count as the site prints counts: with thousands separators ("1,600"), the same in every locale. */
export const formatCount = (n: number) => n.toLocaleString('en-US');
