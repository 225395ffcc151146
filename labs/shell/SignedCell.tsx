/** A table cell for a signed quantity (an advantage, a reward margin): the sign is written out, not only coloured. */
export function SignedCell({ value, format }: { value: number; format(v: number): string }) {
  const sign = value > 1e-6 ? 'pos' : value < -1e-6 ? 'neg' : 'zero';
  return (
    <td className={`adv adv-${sign}`}>
      {sign === 'pos' ? '+' : sign === 'neg' ? '−' : '±'}
      {format(Math.abs(value))}
    </td>
  );
}
