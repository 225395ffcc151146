/** Reading the lab's status line: the step (or round) count it shows, thousands separators and all ("step 1,342 of 5,000"). */
export function stepIn(text: string | null, word = 'step'): number {
  const count = '(\\d{1,3}(?:,\\d{3})*|\\d+)';
  // Where a lab numbers its steps from 0, the count done ("2 of 6 rounds done": read first, as the status may also
  // name the round under way, "now: round 2: sampling"); elsewhere "step 12 of 60".
  const m = new RegExp(`${count}(?: of [\\d,]+)? ${word}s? done`).exec(text ?? '') ?? new RegExp(`${word} ${count}`).exec(text ?? '');
  return m ? Number(m[1].replace(/,/g, '')) : -1;
}
