'use client';

import { useId } from 'react';
import { SignedCell } from '../shell/SignedCell';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import { createCharTokenizer } from '@/lib/tasks/tokenizer';
import type { StepSample } from '../shell/useLabWorker';
import { ScrollBox } from '../shell/ScrollBox';

const tokenizer = createCharTokenizer();
const fmt = (v: number) => v.toFixed(3);

/** The last batches' preference pairs with their implicit rewards β·(log π − log π_ref). */
export function PairInspector({ samples }: { samples: StepSample<'dpo'>[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  if (!entry) return <p className="inspector-empty">Train for a step to inspect its pairs.</p>;
  const batch = entry.data;
  const ordered = batch.filter((b) => b.chosenReward - b.rejectedReward < 0).length;
  return (
    <div className="inspector">
      <div className="inspector-pickers">
        <StepPicker id={`${id}-step`} steps={samples.map((s) => s.step)} value={entry.step} onChange={choose} />
      </div>
      <p className="inspector-summary">
        {batch.length} pairs in this batch; the implicit reward prefers the rejected completion in <strong>{ordered}</strong> of them.
      </p>
      <ScrollBox label="Preference pairs of this step">
        <table className="inspector-table">
          <thead>
            <tr>
              <th scope="col">prompt</th>
              <th scope="col">chosen (correct)</th>
              <th scope="col">rejected (incorrect)</th>
              <th scope="col">reward chosen</th>
              <th scope="col">reward rejected</th>
              <th scope="col">margin</th>
            </tr>
          </thead>
          <tbody>
            {batch.map(({ pair, chosenReward, rejectedReward }, i) => {
              return (
                <tr key={i}>
                  <th scope="row" className="tokens">
                    {pair.prompt}
                  </th>
                  <td className="tokens">{tokenizer.decode(pair.chosen)}</td>
                  <td className="tokens">{tokenizer.decode(pair.rejected)}</td>
                  <td>{fmt(chosenReward)}</td>
                  <td>{fmt(rejectedReward)}</td>
                  <SignedCell value={chosenReward - rejectedReward} format={fmt} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      <p className="inspector-legend">
        Implicit reward = β·(log π_θ − log π_ref) of the whole completion; DPO widens the margin. Watch both rewards: if the chosen one
        falls too, the model is making correct answers less likely while pushing wrong ones down faster.
      </p>
    </div>
  );
}
