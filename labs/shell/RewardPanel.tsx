'use client';

import { useState } from 'react';
import { CodeEditor } from '@/ui/CodeEditor';
import { REWARD_EXAMPLES, REWARD_TIME_LIMIT_MS, REWARD_WEIGHT_MAX, type RewardExampleName } from '@/lib/tasks/custom-reward';
import type { CustomReward } from './useCustomReward';

/**
 * The reader's reward function: an editor (CodeMirror, loaded when the panel is first opened), examples to start from,
 * whether it takes part and its weight. Changes apply to the next run: a run keeps the code it started with.
 */
export function RewardPanel({ reward, disabled, note }: { reward: CustomReward; disabled: boolean; note?: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
    <details className="lab-section lab-reward" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>Your reward function{reward.enabled ? ` (on, weight ${reward.weight})` : ''}</summary>
      <p className="setting-help">
        TRL’s shape: <code>reward(completions, ctx)</code> returns one number per completion; <code>ctx.prompts</code>, <code>ctx.answers</code> and{' '}
        <code>ctx.truncated</code> hold one entry per completion. It runs isolated from this page (no page, no storage, no network) with {REWARD_TIME_LIMIT_MS / 1000} s per
        call, is added to the built-in rewards with its weight (TRL’s <code>reward_weights</code>) and is logged as <code>rewards/custom/mean</code>. A throw, a
        loop, a wrong length or a NaN stops the run with the history kept. <a href="/chapters/grpo/#writing-your-own-reward">Writing rewards, in chapter 6</a>.
      </p>
      {note ? <p className="lab-notice">{note}</p> : null}
      <div className="lab-runs-actions">
        <label className="lab-inline">
          <input type="checkbox" checked={reward.enabled} disabled={disabled} onChange={(e) => reward.setEnabled(e.target.checked)} /> Use my reward function
        </label>
        <label className="lab-inline">
          Weight{' '}
          <input
            type="number"
            min={0}
            max={REWARD_WEIGHT_MAX}
            step={0.1}
            value={reward.weight}
            disabled={disabled}
            onChange={(e) => {
              const w = e.target.valueAsNumber;
              if (Number.isFinite(w) && w >= 0 && w <= REWARD_WEIGHT_MAX) reward.setWeight(w);
            }}
          />
        </label>
        <label className="lab-inline">
          Start from{' '}
          <select
            value=""
            disabled={disabled}
            onChange={(e) => {
              const name = e.target.value as RewardExampleName;
              if (!(name in REWARD_EXAMPLES)) return;
              // The reader's own code is not thrown away without asking.
              const own = !Object.values(REWARD_EXAMPLES).some((x) => x.source === reward.source) && reward.source.trim() !== '';
              if (own && !window.confirm(`Replace your reward function with the ${REWARD_EXAMPLES[name].title} example?`)) return;
              reward.setSource(REWARD_EXAMPLES[name].source);
            }}
          >
            <option value="">an example…</option>
            {Object.entries(REWARD_EXAMPLES).map(([name, example]) => (
              <option key={name} value={name}>
                {example.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      {opened ? <CodeEditor label="Reward function" value={reward.source} onChange={reward.setSource} readOnly={disabled} /> : null}
    </details>
      {/* Outside the panel, so that it shows even with the panel closed: the run did not start because of it. */}
      {reward.loadError ? (
        <p className="lab-error lab-reward-error" role="alert">
          {reward.loadError}
        </p>
      ) : null}
    </>
  );
}
