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

/** The header cells of a GRPO-style row: each reward function with its weight, the weighted total, the advantage. */
export function RewardHeaders({ names, weights }: { names: string[]; weights: number[] }) {
  return (
    <>
      {names.map((name, f) => (
        <th scope="col" key={name}>
          {name} <span className="weight">×{weights[f]}</span>
        </th>
      ))}
      <th scope="col">total</th>
      <th scope="col">advantage</th>
    </>
  );
}

/** The matching cells: each reward, the weighted total and the signed advantage. */
export function RewardCells({ rewards, total, advantage, format }: { rewards: number[]; total: number; advantage: number; format(v: number): string }) {
  return (
    <>
      {rewards.map((r, f) => (
        <td key={f}>{format(r)}</td>
      ))}
      <td>{format(total)}</td>
      <SignedCell value={advantage} format={format} />
    </>
  );
}
