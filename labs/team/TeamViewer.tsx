'use client';

import { useId } from 'react';
import { BOARD_SIZE } from '@/lib/tasks/team';
import type { TeamSamples } from '@/lib/train/team-trainer';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import type { StepSample } from '../shell/useLabWorker';
import { ScrollBox } from '../shell/ScrollBox';

/** Rollouts shown: the first groups of the step (each group is one problem, num_generations rollouts). */
const SHOWN_GROUPS = 2;
const shown = (t: string) => (t === '<eos>' ? '⏎' : t);
const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

/** The board with the target position marked: what the receiver sees, and where the sender points. */
function Board({ board, target }: { board: string; target: number }) {
  return (
    <span className="team-board">
      {[...board].map((d, i) => (
        <span key={i} className={i === target ? 'tok tok-target' : 'tok'} title={i === target ? `position ${i}: the target` : `position ${i}`}>
          {d}
        </span>
      ))}
    </span>
  );
}

/** What each message value has come to mean in this step's batch: which targets it was sent for, and how often the receiver was then right. */
function Meanings({ data }: { data: TeamSamples }) {
  if (data.blankChannel) return <p className="inspector-note">The channel is blank (no_message): every rollout&apos;s receiver sees only blanks, so no message means anything.</p>;
  // Six columns of counts are wider than a phone: the table scrolls in its own box, as the rollouts' table does.
  // The caption stays short: it scrolls with the table at 390 px. What the counts mean is said above the box.
  return (
    <>
      <p className="inspector-legend">
        Counts from this step&apos;s {data.episodes.length} sampled rollouts, most sent first; positions count from 0, left to right on the board.
        Sampling still tries rare messages, so the table lists more messages than the held-out chart counts: those come from greedy answers, one per
        board.
      </p>
      <ScrollBox label="What each message has come to mean">
      <table className="inspector-table team-meanings">
        <caption>What each message has come to mean</caption>
        <thead>
          <tr>
            <th scope="col">message</th>
            {Array.from({ length: BOARD_SIZE }, (_, t) => (
              <th key={t} scope="col">sent for position {t}</th>
            ))}
            <th scope="col">receiver right after it</th>
          </tr>
        </thead>
        <tbody>
          {data.meanings.map((m) => {
            const total = m.targets.reduce((a, b) => a + b, 0);
            return (
              <tr key={m.message}>
                <th scope="row">
                  <code className="team-message">{m.message === '' ? '(empty)' : m.message}</code>
                </th>
                {m.targets.map((c, t) => (
                  <td key={t} className={c === Math.max(...m.targets) && c > 0 ? 'team-meaning-top' : undefined}>
                    {c > 0 ? `${c} (${Math.round((100 * c) / total)}%)` : ''}
                  </td>
                ))}
                <td>{Math.round(100 * m.accuracy)}%</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </ScrollBox>
    </>
  );
}

/**
 * Pick a step; see its first groups' rollouts with both roles side by side: what the sender saw and wrote, the message
 * as the channel delivered it (highlighted), what the receiver saw and answered, the team's reward and the advantage
 * both roles' tokens got. Then the table of what each message value has come to mean.
 */
export function TeamViewer({ samples }: { samples: StepSample<'team'>[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  if (!entry) return <p className="inspector-empty">Train for a step to see the team&apos;s rollouts.</p>;
  const data = entry.data;
  const episodes = data.episodes.slice(0, SHOWN_GROUPS * data.numGenerations);
  return (
    <div className="inspector team-viewer">
      <div className="inspector-pickers">
        <StepPicker id={`${id}-step`} steps={samples.map((s) => s.step)} value={entry.step} onChange={choose} />
      </div>
      <p className="inspector-legend">
        Sender: sees the target position, writes the message (trained on its own tokens{data.trainSender ? '' : '; frozen in this run'}). Channel:{' '}
        <mark className="team-message">the message</mark> as the receiver gets it (&quot;.&quot; a blank slot). Receiver: sees the board and the
        channel, writes one digit (trained on that token only: board and message are context). ⏎ the sender ended its message; any other token it writes, &lt;bos&gt; included, reaches the receiver as written.
      </p>
      <ScrollBox label="The team’s rollouts">
        <table className="inspector-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">sender sees</th>
              <th scope="col">sender writes</th>
              <th scope="col">channel</th>
              <th scope="col">receiver sees the board</th>
              <th scope="col">receiver answers</th>
              <th scope="col">team reward</th>
              <th scope="col">advantage (both roles)</th>
            </tr>
          </thead>
          <tbody>
            {episodes.map((e, i) => (
              <tr key={i} data-reward={e.reward}>
                <th scope="row">{i + 1}</th>
                <td>position {e.target}</td>
                <td className="tokens">
                  {e.senderTokens.map((t, j) => (
                    <span key={j} className="tok">
                      {shown(t)}
                    </span>
                  ))}
                </td>
                <td>
                  <mark className="team-message">{e.delivered}</mark>
                </td>
                <td>
                  <Board board={e.board} target={e.target} />
                </td>
                <td>
                  <span className="tok">{e.reply}</span> {e.reward === 1 ? '(right)' : `(the target was ${e.answer})`}
                </td>
                <td>{e.reward}</td>
                <td>{fmt(e.advantage)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <Meanings data={data} />
    </div>
  );
}
