import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PPO_RELEASE, TRL_VERSION, trlDefaults, type TrlConfig } from '@/content/trl-defaults';
import { chapterFiles } from '@/lib/content/chapters';
import { agentSchema } from '@/lib/train/agent-config';
import type { Schema } from '@/lib/train/config';
import { dpoSchema } from '@/lib/train/dpo-config';
import { grpoSchema } from '@/lib/train/grpo-config';
import { ppoSchema } from '@/lib/train/ppo-config';
import { sftSchema } from '@/lib/train/sft-config';
import { canonicalValue, findDefaultStatements, type DefaultStatement } from './default-statements';

// Every default a chapter states must be the lab's (lib/train/*-config.ts) when it speaks of the lab, and otherwise
// TRL v1.13's as recorded, with file and line, in content/trl-defaults.ts (PPOConfig's: v1.9's, the last read that ships it).

/** The TRL config a chapter speaks of unless a sentence names another, and the lab config it runs. */
const CHAPTER_CONFIG: Record<string, { trl: TrlConfig; lab?: Schema }> = {
  'agentic-rl': { trl: 'GRPOConfig', lab: agentSchema },
  'sft-lora': { trl: 'SFTConfig', lab: sftSchema },
  'distributed-training': { trl: 'GRPOConfig' },
  ppo: { trl: 'PPOConfig', lab: ppoSchema },
  dpo: { trl: 'DPOConfig', lab: dpoSchema },
  grpo: { trl: 'GRPOConfig', lab: grpoSchema },
  pipeline: { trl: 'GRPOConfig', lab: grpoSchema },
  'research-2025': { trl: 'GRPOConfig', lab: grpoSchema },
  'agent-data': { trl: 'SFTConfig' },
  'beyond-the-calculator': { trl: 'GRPOConfig', lab: agentSchema },
};

const NAMED: [RegExp, TrlConfig][] = [
  [/AsyncGRPO/, 'AsyncGRPOConfig'],
  [/\bSFT(Config|Trainer)\b/, 'SFTConfig'],
  [/\bDPO(Config|Trainer)\b/, 'DPOConfig'],
  [/\bPPO(Config|Trainer)\b/, 'PPOConfig'],
  [/\bGRPO(Config|Trainer)\b/, 'GRPOConfig'],
];

const labSchemas = [agentSchema, sftSchema, ppoSchema, dpoSchema, grpoSchema] as Schema[];
const knownFields = new Set([...trlDefaults.map((d) => d.field), ...labSchemas.flatMap((s) => Object.keys(s))]);

const sources = new Map([...chapterFiles()].map(([slug, { file }]) => [slug, fs.readFileSync(path.join(process.cwd(), file), 'utf8')]));

/** What is wrong with one chapter's stated defaults; empty when every one agrees with its source. */
function checkDefaults(slug: string, source: string): { found: DefaultStatement[]; problems: string[] } {
  const found = findDefaultStatements(source, knownFields);
  const problems: string[] = [];
  const { trl, lab } = CHAPTER_CONFIG[slug];
  for (const s of found) {
    const where = `${slug}:${s.line} \`${s.field}\` stated default ${s.stated}`;
    const stated = canonicalValue(s.stated);
    const aboutLab = /\blab\b/i.test(s.text) && !/\bTRL\b/.test(s.text);
    if (aboutLab) {
      const field = lab?.[s.field];
      if (!field) problems.push(`${where}: the lab's config has no such field`);
      else if (canonicalValue(field.default) !== stated) problems.push(`${where}, but the lab's default is ${field.default}`);
      continue;
    }
    const config = NAMED.find(([re]) => re.test(s.text))?.[1] ?? trl;
    const recorded = trlDefaults.find((d) => d.config === config && d.field === s.field);
    if (!recorded) {
      problems.push(`${where}: no TRL ${TRL_VERSION} default recorded for ${config}.${s.field} in content/trl-defaults.ts`);
      continue;
    }
    const accepted = [canonicalValue(recorded.value), ...(recorded.resolves ? [recorded.resolves] : [])];
    if (!accepted.includes(stated)) problems.push(`${where}, but TRL ${recorded.release ?? TRL_VERSION} has ${accepted.join(' (→ ')}${recorded.resolves ? ')' : ''} (${recorded.file}:${recorded.line})`);
  }
  return { found, problems };
}

describe('defaults stated in the chapters', () => {
  it('agree with the lab configs and with TRL v1.13', () => {
    const problems = [...sources].flatMap(([slug, source]) => checkDefaults(slug, source).problems);
    expect(problems).toEqual([]);
  });

  it('are found where the chapters state them (the scanner still sees them)', () => {
    const found = new Map([...sources].map(([slug, source]) => [slug, checkDefaults(slug, source).found]));
    const has = (slug: string, field: string, stated: string) =>
      expect(found.get(slug)!.some((s) => s.field === field && canonicalValue(s.stated) === canonicalValue(stated)), `${slug}: ${field} = ${stated}`).toBe(true);
    has('ppo', 'learning_rate', '3e-6');
    has('ppo', 'kl_coef', '0.05');
    has('ppo', 'kl_estimator', 'k1');
    has('ppo', 'whiten_rewards', 'False');
    has('dpo', 'beta', '0.1');
    has('dpo', 'learning_rate', '1e-6');
    has('grpo', 'epsilon', '0.2');
    has('grpo', 'epsilon_high', 'epsilon');
    has('grpo', 'beta', '0');
    has('grpo', 'num_iterations', '1');
    has('pipeline', 'completion_only_loss', 'None');
    has('sft-lora', 'packing_strategy', 'bfd');
    has('distributed-training', 'vllm_mode', 'colocate');
    has('research-2025', 'steps_per_generation', 'gradient_accumulation_steps');
    expect([...found.values()].flat().length).toBeGreaterThanOrEqual(45);
  });

  it('fail when prose changes a default that neither TRL nor the lab has', () => {
    const edits: [string, string, string][] = [
      ['ppo', '| `learning_rate` | `3e-6` |', '| `learning_rate` | `5e-5` |'],
      ['ppo', '`kl_coef` (0.05 by default)', '`kl_coef` (0.1 by default)'],
      ['dpo', "TRL's default is `beta = 0.1`", "TRL's default is `beta = 0.5`"],
      ['grpo', 'with the default `num_iterations = 1`', 'with the default `num_iterations = 2`'],
      ['grpo', '`epsilon_high`, which defaults to `epsilon`', '`epsilon_high`, which defaults to 0.28'],
    ];
    for (const [slug, from, to] of edits) {
      const source = sources.get(slug)!;
      expect(source, from).toContain(from);
      expect(checkDefaults(slug, source.replace(from, to)).problems, `${slug}: ${to}`).toHaveLength(1);
    }
  });
});

describe('the recorded TRL v1.13 defaults', () => {
  it('pin v1.13.0, and v1.9.0 only for PPOConfig, which v1.13.0 no longer ships', () => {
    expect(TRL_VERSION).toBe('v1.13.0');
    expect(PPO_RELEASE).toBe('v1.9.0');
    for (const d of trlDefaults) expect(d.release, `${d.config}.${d.field}`).toBe(d.config === 'PPOConfig' ? PPO_RELEASE : undefined);
  });

  it('record the v1.13.0 changes of defaults the course quotes (grpo_config.py:494 and 968)', () => {
    const changed = trlDefaults.filter((d) => d.was).map((d) => `${d.config}.${d.field}: ${String(d.was!.value)} → ${String(d.value)}`);
    expect(changed).toEqual(['GRPOConfig.max_completion_length: 256 → 512', 'GRPOConfig.use_bias_correction_kl: false → true']);
  });

  it('name each field once per config, at a line of a source file of its release', () => {
    const keys = trlDefaults.map((d) => `${d.config}.${d.field}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const d of trlDefaults) {
      expect(d.file, keys.join()).toMatch(/^trl\/(trainer|experimental\/[a-z_]+)\/[a-z_]+_config\.py$/);
      expect(Number.isInteger(d.line) && d.line > 0).toBe(true);
    }
  });

  it('agree with every lab field whose reason says it takes TRL’s default', () => {
    const labs: [TrlConfig, Schema][] = [
      ['GRPOConfig', grpoSchema],
      ['DPOConfig', dpoSchema],
      ['PPOConfig', ppoSchema],
      ['SFTConfig', sftSchema],
    ];
    let compared = 0;
    for (const [config, schema] of labs) {
      for (const [field, spec] of Object.entries(schema)) {
        const recorded = trlDefaults.find((d) => d.config === config && d.field === field);
        if (!recorded || !/TRL[’']s( and CleanRL[’']s)? default/.test(spec.reason)) continue;
        compared++;
        expect(canonicalValue(spec.default), `${config}.${field}`).toBe(canonicalValue(recorded.value));
      }
    }
    expect(compared).toBeGreaterThanOrEqual(5);
  });
});
