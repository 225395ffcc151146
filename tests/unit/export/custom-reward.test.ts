/**
 * The reader's own reward function in an export (lib/export/custom-reward.ts): kept as custom_reward.js, given to TRL
 * as custom_reward.py (common.py's equivalent when the code is one of the editor's examples, a stub to port otherwise),
 * wired into reward_funcs and reward_weights, listed in the settings table and the README; refused where a method has
 * no rewards. With python3: the ported custom_reward gives the lab's numbers, and the stub stops with its message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, exportSettings } from './helpers';
import { asRewardModule, REWARD_EXAMPLES } from '@/lib/tasks/custom-reward';
import { correctnessReward } from '@/lib/tasks/rewards';
import { ConfigError } from '@/lib/train/config';
import { hasPython, python } from './helpers';

const grpo = (source: string, weight = 0.5) => buildProject('grpo', exportSettings('grpo', 'default'), 'default', { source, weight });
const file = (project: ReturnType<typeof grpo>, name: string) => project.files.find((f) => f.path === name)?.text ?? '';
const OWN = 'export default (completions, ctx) => completions.map((t) => (t.includes("####") ? 0.2 : 0));\n';

describe('a reward function of the reader’s own in the export', () => {
  it('is wired into the training script, the settings table and the README', () => {
    const project = grpo(REWARD_EXAMPLES.correctness.source);
    expect(project.files.map((f) => f.path)).toEqual(expect.arrayContaining(['custom_reward.py', 'custom_reward.js']));
    const train = file(project, 'train_grpo.py');
    expect(train).toContain('from custom_reward import custom_reward');
    expect(train).toMatch(/reward_funcs=\[[^\]]*\bcustom_reward\]/);
    const weights = project.plan.rewards.map((r) => `${r.fn}:${r.weight}`);
    expect(weights.at(-1)).toBe('custom_reward:0.5');
    const row = project.plan.rows.find((r) => r.field === 'your reward function');
    expect(row).toMatchObject({ value: 'JavaScript, weight 0.5', status: 'copied' });
    const readme = file(project, 'README.md');
    expect(readme).toContain('`your reward function`');
    expect(readme).toContain('`custom_reward.py`');
    expect(file(project, 'custom_reward.js')).toContain(REWARD_EXAMPLES.correctness.source.trim());
    expect(JSON.parse(file(project, 'lab-run.json')).custom_reward).toEqual({ weight: 0.5, source: 'custom_reward.js' });
  });

  it('calls common.py’s equivalent for the editor’s examples, in either form, and is a stub to port otherwise', () => {
    expect(file(grpo(REWARD_EXAMPLES.correctness.source), 'custom_reward.py')).toContain('return correctness_reward(completions, answer=answer, **kwargs)');
    expect(file(grpo(asRewardModule(REWARD_EXAMPLES.format.source)), 'custom_reward.py')).toContain('return format_reward(');
    expect(file(grpo(REWARD_EXAMPLES.length_penalty.source), 'custom_reward.py')).toContain('return length_penalty(');
    const own = grpo(OWN);
    const py = file(own, 'custom_reward.py');
    expect(py).toContain('raise NotImplementedError');
    expect(py).toContain('# export default (completions, ctx) =>');
    expect(py).toContain('ctx.answers[i]      -> answer[i]');
    expect(own.plan.rows.find((r) => r.field === 'your reward function')?.status).toBe('changed');
    expect(own.plan.warnings.some((w) => w.startsWith('Your reward function is JavaScript'))).toBe(true);
  });

  it('is refused for methods without rewards and with a weight that is not positive', () => {
    expect(() => buildProject('sft', exportSettings('sft', 'default'), 'default', { source: OWN, weight: 1 })).toThrow(ConfigError);
    expect(() => grpo(OWN, 0)).toThrow(/weight must be above 0/);
  });

  it.skipIf(!hasPython)('runs in Python: the ported one gives the lab’s numbers, the stub stops with its message', () => {
    const completions = ['7 #### 12', '#### 13', 'no answer', '#### 12'];
    const answers = ['12', '12', '12', '9'];
    for (const [name, source] of [['ported', REWARD_EXAMPLES.correctness.source], ['stub', OWN]] as const) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `arl-custom-${name}-`));
      for (const f of grpo(source).files.filter((x) => x.path.endsWith('.py'))) fs.writeFileSync(path.join(dir, f.path), f.text);
      const out = python(
        `import json\nfrom custom_reward import custom_reward\ntry:\n    print(json.dumps({"rewards": custom_reward(${JSON.stringify(completions)}, answer=${JSON.stringify(answers)})}))\nexcept NotImplementedError as e:\n    print(json.dumps({"stopped": str(e)}))\n`,
        [],
        dir,
      ) as { rewards?: number[]; stopped?: string };
      if (name === 'ported') expect(out.rewards).toEqual(correctnessReward(completions, { answers }));
      else expect(out.stopped).toMatch(/custom_reward.py is a stub: port your JavaScript reward/);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
