import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PPO_RELEASE, TRL_VERSION, trlDefaults } from '@/content/trl-defaults';
import { chapterFiles } from '@/lib/content/chapters';
import { canonicalValue } from './default-statements';

// TRL facts are pinned to v1.13 (release v1.13.0), the release the core follows; each check below names the line of
// TRL source it stands for, read in the v1.13.0 wheel (whose .py files are the tag's). PPO is the exception: v1.13.0
// no longer ships trl/experimental/ppo, so chapter 4 keeps v1.9.0's facts and says so. Defaults are checked
// separately, in defaults.test.ts.
const read = (slug: string) => fs.readFileSync(path.join(process.cwd(), chapterFiles().get(slug)!.file), 'utf8');
const chapters = [...chapterFiles().keys()].map((slug) => [slug, read(slug)] as const);

/** The text of a `## heading` section, up to the next `## `. */
function section(source: string, heading: string): string {
  const start = source.indexOf(`## ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = source.indexOf('\n## ', start + 3);
  return source.slice(start, end < 0 ? undefined : end);
}

/** The text of a `### heading` subsection, up to the next heading of level 2 or 3. */
function subsection(source: string, heading: string): string {
  const start = source.indexOf(`### ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = source.slice(start + 4).search(/\n#{2,3} /);
  return source.slice(start, end < 0 ? undefined : start + 4 + end);
}

const CHANGES = 'What changed from TRL v1.9.0 to v1.13.0 for the fields this course uses';

describe('every chapter that speaks of TRL names its release', () => {
  it('says TRL v1.13, and cites no unpinned documentation', () => {
    for (const [slug, source] of chapters) {
      if (!/\bTRL\b/.test(source)) continue;
      expect(source, slug).toContain('TRL v1.13');
      expect(source, `${slug} cites TRL's unversioned docs`).not.toMatch(/huggingface\.co\/docs\/trl\/main\//);
    }
    for (const slug of ['dpo', 'grpo', 'pipeline']) expect(read(slug)).toContain('checked against TRL v1.13 (tag `v1.13.0`)');
  });

  it('quotes v1.9 only where v1.13 cannot be checked: PPO (removed) and the paper index (docs, not in the wheel)', () => {
    for (const [slug, source] of chapters) {
      const changes = slug === 'pipeline' ? subsection(source, CHANGES) : '';
      const lines = source.split('\n').filter((l) => /v1\.9(?!\d)/.test(l) && !(changes && changes.includes(l)));
      for (const l of lines) expect(/PPO|paper.index|paper_index/i.test(l), `${slug}: ${l.slice(0, 120)}`).toBe(true);
    }
    expect(read('ppo')).toContain('checked against TRL v1.9 (tag `v1.9.0`): TRL v1.13 (tag `v1.13.0`), the release the other chapters follow, no longer ships `PPOConfig` or `PPOTrainer`.');
  });
});

describe('TRL v1.13 facts in chapters 4 to 7', () => {
  it('GRPOConfig.loss_type has eight values (trl/trainer/grpo_config.py:796-828, grpo_trainer.py:3202-3275)', () => {
    const grpo = read('grpo');
    expect(grpo).toContain("TRL v1.13's `loss_type` has eight choices");
    for (const t of ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo']) expect(grpo).toContain(`'${t}'`);
    expect(grpo).not.toMatch(/four choices/);
  });

  it('DPO: delta_score, and label_smoothing ignored by sigmoid from v0.29 (dpo_trainer.py:1468-1473)', () => {
    const dpo = read('dpo');
    expect(dpo).toContain("TRL v1.13's code calls `delta_score`");
    expect(dpo).not.toMatch(/code calls `logits`/);
    expect(dpo).toContain("From v0.29 on, and so in v1.13, `'sigmoid'` ignores `label_smoothing`");
    expect(dpo).not.toMatch(/In TRL it is the `'sigmoid'` loss with `label_smoothing`/);
    // TRL v1.13 offers fifteen DPO losses (dpo_config.py:81-84).
    for (const t of ['sigmoid', 'hinge', 'ipo', 'exo_pair', 'nca_pair', 'robust', 'bco_pair', 'sppo_hard', 'aot', 'aot_unpaired', 'apo_zero', 'apo_down', 'discopop', 'sft', 'sigmoid_norm']) expect(dpo).toContain(`\`'${t}'\``);
    // IPO divides by the token count clamped to 1 (dpo_trainer.py:1485-1486); the course's core rejects empty completions.
    expect(dpo).toContain('TRL v1.13 clamps the token count to at least 1');
  });

  it('PPOConfig overrode learning_rate to 3e-6 and lived in trl.experimental.ppo at v1.9.0 (ppo_config.py:120-126), gone in v1.13.0', () => {
    const ppo = read('ppo');
    expect(ppo).toContain('`trl.experimental.ppo`');
    expect(ppo).toContain('TRL v1.13 (tag `v1.13.0`) no longer has it.');
    expect(ppo).not.toMatch(/from `TrainingArguments` \|/);
  });

  it('max_prompt_length: gone from GRPOConfig since v0.28', () => {
    const pipeline = read('pipeline');
    expect(pipeline).toContain('TRL releases before v0.28 also had a `max_prompt_length`');
    expect(pipeline).not.toMatch(/current ones have dropped it/);
  });
});

describe('what chapter 1 promises the other chapters cover', () => {
  const first = read('agentic-rl');

  it('lists chapter 8’s topics, each of which is a section there', () => {
    const research = read('research-2025');
    const bullet = first.split('\n').find((l) => l.startsWith('- [Research 2025–26](/chapters/research-2025/)'))!;
    expect(bullet).toBeDefined();
    const headings = research.split('\n').filter((l) => /^#{2,3} /.test(l)).join('\n');
    for (const [promised, heading] of [
      ['DeepSeek-R1', 'DeepSeek-R1'],
      ['DAPO', 'DAPO'],
      ['Dr. GRPO', 'Dr. GRPO'],
      ['VAPO', 'VAPO'],
      ['GSPO', 'GSPO'],
      ['process rewards', 'Process rewards'],
      ['asynchronous rollouts', 'asynchronous and off-policy rollouts'],
      ['six methods from 2026', 'Six names from 2026'],
    ]) {
      expect(bullet, promised).toContain(promised);
      expect(headings, heading).toContain(heading);
    }
  });

  it('sends overlapping generation and tool waits to chapters 3 and 8, which cover them', () => {
    const promise = first.split('\n').find((l) => l.startsWith('First, **rollouts are expensive and slow**'))!;
    expect(promise).toContain('/chapters/distributed-training/#what-changes-for-rl');
    expect(promise).toContain('/chapters/research-2025/#training-efficiency-asynchronous-and-off-policy-rollouts');
    const rl = section(read('distributed-training'), 'What changes for RL');
    expect(rl).toMatch(/overlap/);
    expect(rl).toMatch(/wait on tools/);
    expect(section(read('research-2025'), 'Training efficiency: asynchronous and off-policy rollouts')).toMatch(/decouple/);
  });
});

describe('chapter 7’s table of what changed from TRL v1.9.0 to v1.13.0', () => {
  const table = subsection(read('pipeline'), CHANGES);
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .slice(1)
    .map((l) => l.replace(/^\||\|$/g, '').split(' | ').map((c) => c.trim()));
  const unquote = (c: string) => c.replace(/^`|`$/g, '');

  it('has a row, with the v1.9.0 and v1.13.0 values and the v1.13.0 file:line, for every default that changed', () => {
    const changed = trlDefaults.filter((d) => d.was);
    expect(changed.length).toBeGreaterThanOrEqual(2);
    for (const d of changed) {
      const row = rows.find((r) => r[0] === `\`${d.field}\``);
      expect(row, `${d.config}.${d.field} has no row`).toBeDefined();
      expect(canonicalValue(unquote(row![1])), `${d.field} at v1.9.0`).toBe(canonicalValue(d.was!.value));
      expect(canonicalValue(unquote(row![2])), `${d.field} at ${TRL_VERSION}`).toBe(canonicalValue(d.value));
      expect(row![3], `${d.field}'s source`).toContain(`\`${d.file}:${d.line}\``);
    }
  });

  it('states no default for a field whose default did not change, and names each row’s source', () => {
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r, r[0]).toHaveLength(5);
      const recorded = trlDefaults.find((d) => d.config !== 'PPOConfig' && `\`${d.field}\`` === r[0]);
      if (recorded) expect(recorded.was, `${r[0]} is in the table but its default did not change`).toBeDefined();
      expect(r[3], r[0]).toMatch(/`trl\/[a-z_/]+(\.py:\d+(-\d+)?)?\/?`/);
      expect(r[4].length, r[0]).toBeGreaterThan(30);
    }
    for (const field of ['use_bias_correction_kl', 'max_completion_length']) expect(rows.map((r) => r[0])).toContain(`\`${field}\``);
    // PPO: removed in v1.13.0, so the course's PPO defaults stay those of v1.9.0.
    expect(rows.some((r) => r[0].includes('PPOConfig') && r[2] === 'removed')).toBe(true);
    expect(trlDefaults.filter((d) => d.config === 'PPOConfig').every((d) => d.release === PPO_RELEASE)).toBe(true);
  });
});
