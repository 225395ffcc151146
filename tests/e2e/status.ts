/** Reading the lab's status line: the step (or round) count it shows, thousands separators and all ("step 1,342 of 5,000"). */
export function stepIn(text: string | null, word = 'step'): number {
  const m = new RegExp(`${word} (\\d{1,3}(?:,\\d{3})*|\\d+)`).exec(text ?? '');
  return m ? Number(m[1].replace(/,/g, '')) : -1;
}
