'use client';

import { useId, useState } from 'react';
import type { VisionAnswer, VisionGroupSample, VisionInspector } from '@/lib/train/vision-inspector';
import { StepPicker, useChosenSample } from '../shell/StepPicker';
import { TokenTermsDisclosure } from '../shell/TokenTermsView';
import { ScenePicture, type OverlayMode } from './ScenePicture';
import { askedCell, describeAttention, pictureName, place, spelled } from './scene-text';

/** One kept step's inspector data (the shell's StepSample<'vision'>, spelled out so the viewer needs only the contract). */
export interface VisionStep {
  step: number;
  data: VisionInspector;
}

const PHASE: Record<VisionInspector['phase'], string> = { sft: 'SFT phase', grpo: 'GRPO phase' };
const shown = (completion: string) => completion.replace(/<eos>/g, '').trim() || '(nothing)';
const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
const percent = (v: number) => `${Math.round(100 * v)}%`;

/** An answer as a chip: the completion, marked right (✓) or wrong (✗) in words as well as colour. */
function Answer({ answer, index }: { answer: VisionAnswer; index: number }) {
  const verdict = answer.correct ? 'right' : 'wrong';
  return (
    <li className={`vision-answer vision-${verdict}`} title={`answer ${index + 1}: ${shown(answer.completion)}, ${verdict}, reward ${fmt(answer.reward)}`}>
      <span aria-hidden="true">{answer.correct ? '✓' : '✗'}</span> <code>{shown(answer.completion)}</code>
      <span className="sr-only">
        {' '}
        {verdict}, reward {fmt(answer.reward)}
      </span>
    </li>
  );
}

/** One group: its picture (or the note that there was none), the question, the truth, and the group's answers. */
function GroupCard({ group, index }: { group: VisionGroupSample; index: number }) {
  const right = group.answers.filter((a) => a.correct).length;
  return (
    <li className="vision-group">
      <figure>
        {group.scene ? (
          <ScenePicture scene={group.scene} name={pictureName(group)} />
        ) : (
          <div className="vision-no-picture">No picture: under text_only the policy sees only the question.</div>
        )}
        <figcaption>
          <span className="vision-question">
            {index + 1}. {group.question}
          </span>{' '}
          <span className="vision-truth">answer: {spelled(group.truth)}</span>
          <span className="vision-tally">
            {' '}
            ({right} of {group.answers.length} right)
          </span>
        </figcaption>
      </figure>
      <ol className="vision-answers" aria-label={`The policy’s answers to picture ${index + 1}`}>
        {group.answers.map((a, i) => (
          <Answer key={i} answer={a} index={i} />
        ))}
      </ol>
    </li>
  );
}

/** Answer 1's attention as numbers: one cell per patch, in the picture's layout (what the overlay draws). */
function AttentionTable({ attention, patchGrid }: { attention: readonly number[]; patchGrid: number }) {
  return (
    <table className="inspector-table vision-attention-table">
      <caption>Answer 1’s attention per patch</caption>
      <tbody>
        {Array.from({ length: patchGrid }, (_, r) => (
          <tr key={r}>
            {attention.slice(r * patchGrid, (r + 1) * patchGrid).map((a, c) => (
              <td key={c} title={place(r, c)}>
                {percent(a)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Where answer 1 of one group looked: its picture with the attention drawn over the patches, in words, and as numbers. */
function AttentionView({ groups, id }: { groups: VisionGroupSample[]; id: string }) {
  const [chosen, setChosen] = useState(0);
  const [mode, setMode] = useState<OverlayMode>('heat');
  const index = Math.min(chosen, groups.length - 1);
  const group = groups[index];
  const first = group.answers[0];
  return (
    <div className="vision-attention">
      <h4>Where the model looks</h4>
      <div className="inspector-pickers">
        <label htmlFor={`${id}-group`}>Picture</label>
        <select id={`${id}-group`} value={index} onChange={(e) => setChosen(Number(e.target.value))}>
          {groups.map((g, i) => (
            <option key={i} value={i}>
              {i + 1}. {g.question} ({spelled(g.truth)})
            </option>
          ))}
        </select>
        <fieldset className="vision-mode">
          <legend>Overlay</legend>
          {(['heat', 'spotlight'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name={`${id}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} /> {m}
            </label>
          ))}
        </fieldset>
      </div>
      {group.scene && group.attention ? (
        <div className="vision-attention-body">
          <ScenePicture
            scene={group.scene}
            name={`${pictureName(group)}, with answer 1’s attention drawn over it`}
            attention={group.attention}
            patchGrid={group.patchGrid}
            mode={mode}
            mark={askedCell(group.question)}
            className="vision-picture-large"
          />
          <div>
            <p className="vision-attention-words">
              Answer 1{first ? <> (<code>{shown(first.completion)}</code>, {first.correct ? 'right' : 'wrong'})</> : null}: of the attention its first
              token paid (last layer, heads averaged), {describeAttention(group.scene, group.attention, group.patchGrid, 3, group.question)}
            </p>
            <AttentionTable attention={group.attention} patchGrid={group.patchGrid} />
          </div>
        </div>
      ) : (
        <p className="inspector-legend">No picture here (text_only), so there is no attention over one to show.</p>
      )}
      <p className="inspector-legend">
        {mode === 'heat'
          ? 'Heat: the stronger the tint behind a patch, the more attention it got, relative to the patch that got most.'
          : 'Spotlight: patches that got little attention are veiled; the one that got most is clear.'}{' '}
        A dashed outline marks the cell a question names.
        Attention is not an explanation of the answer: it shows what the token read, not why it chose.
      </p>
    </div>
  );
}

/**
 * Pick a step; see its pictures with the question, the verified answer and the group's sampled answers marked right
 * or wrong; then, for one picture, where the first answer looked (attention over the image patches).
 */
export function VisionViewer({ samples }: { samples: VisionStep[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  if (!entry) return <p className="inspector-empty">Train for a step to see the pictures and the policy&apos;s answers.</p>;
  const { phase, groups, tokenView } = entry.data;
  const answers = groups.flatMap((g) => g.answers);
  const right = answers.filter((a) => a.correct).length;
  return (
    <div className="inspector vision-viewer">
      <div className="inspector-pickers">
        <StepPicker id={`${id}-step`} steps={samples.map((s) => s.step)} value={entry.step} onChange={choose} />
      </div>
      <p className="inspector-summary">
        Step {entry.step}, {PHASE[phase]}: <strong>{right}</strong> of {answers.length} sampled answers right across {groups.length}{' '}
        {groups.length === 1 ? 'picture' : 'pictures'}. ✓ right, ✗ wrong (checked against the answer the task computed from the picture).
      </p>
      <ul className="vision-groups">
        {groups.map((g, i) => (
          <GroupCard key={i} group={g} index={i} />
        ))}
      </ul>
      {groups.some((g) => g.scene && g.attention) ? (
        <AttentionView groups={groups} id={id} />
      ) : (
        <p className="inspector-legend">This run&apos;s policy sees no picture (text_only), so there is no attention over one to show.</p>
      )}
      {phase === 'grpo' && (
        <TokenTermsDisclosure
          terms={tokenView?.terms}
          completions={(tokenView?.questions ?? []).map((q, i) => ({ label: `${q} → ${shown(tokenView!.tokens[i].join(''))}`, tokens: tokenView!.tokens[i] }))}
        />
      )}
    </div>
  );
}
