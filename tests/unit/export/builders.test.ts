/**
 * The exporters' one contract (lib/export/types.ts ExportBuilder, which both builders satisfy at compile time): the
 * GSM8K builder and the vision builder take the lab as its spec describes it and read the trainer, summary and presets
 * from it, never from the registry above lib/export; both map their fields with mapping.ts's machinery.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_METHODS } from '@/lib/export/mapping';
import { exportLabOf, exportSettings } from '@/lib/spec/export';
import { requirementsTxt } from '@/lib/export/readme';
import { mapFields, type Rule } from '@/lib/export/rules';
import { changedFields, labSettings } from '@/lib/export/settings';
import { buildTextProject } from '@/lib/export/text-project';
import type { ExportLab } from '@/lib/export/types';
import { buildVisionProject } from '@/lib/export/vision-project';
import { visionRequirementsTxt } from '@/lib/export/vision-readme';
import { ConfigError } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';

const labOf = (trainer: (typeof EXPORT_METHODS)[number] | 'vision'): ExportLab => exportLabOf(trainer);
const readme = (files: { path: string; text: string }[]) => files.find((f) => f.path === 'README.md')!.text;

/** Local modules a file reaches through its static imports, type-only ones included (a layer is a layer for types too). */
function reached(start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[1];
      const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(file), spec) : null;
      if (base === null) continue;
      const local = [`${base}.ts`, base, path.join(base, 'index.ts')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (local && !seen.has(path.normalize(local))) {
        seen.add(path.normalize(local));
        queue.push(path.normalize(local));
      }
    }
  }
  return seen;
}

describe('the export builders', () => {
  it('reach nothing in lib/spec: the builders sit below the spec that names them', () => {
    // The walk does find the registry where it is imported (the spec's dispatch reads TRAINERS).
    expect(reached('lib/spec/export.ts')).toContain('lib/spec/registry.ts');
    const everyModule = fs.readdirSync('lib/export', { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    expect(everyModule).toEqual(expect.arrayContaining(['text-project.ts', 'vision-project.ts', 'mapping.ts', 'rules.ts']));
    for (const start of everyModule.map((f) => `lib/export/${f}`)) {
      const spec = [...reached(start)].filter((f) => f.startsWith('lib/spec/'));
      expect(spec, start).toEqual([]);
    }
  });

  it('take the method, the summary and the presets from the lab they are given', () => {
    const lab = { ...labOf('grpo'), summary: 'a summary only this test writes' };
    const project = buildTextProject(lab, exportSettings('grpo', 'default'), 'default');
    expect(project.name).toBe('trl-grpo-default');
    expect(readme(project.files)).toContain('(the `grpo` trainer, a summary only this test writes; preset `default`)');
    expect(project.files.map((f) => f.path)).toContain('train_grpo.py');
    // The README's "with …" lists what differs from the lab's own preset: a lab whose default preset already sets the
    // value lists nothing.
    const settings = exportSettings('grpo', 'default', { beta: 0.04 });
    expect(readme(buildTextProject(labOf('grpo'), settings, 'default').files)).toContain('with `beta=0.04`');
    const presets = { ...lab.presets, default: { description: 'beta preset', overrides: { beta: 0.04 } } };
    expect(readme(buildTextProject({ ...lab, presets }, settings, 'default').files)).not.toContain('with `beta=0.04`');
    const vision = buildVisionProject({ ...labOf('vision'), summary: 'another summary' }, exportSettings('vision', 'default'), 'default');
    expect(readme(vision.files)).toContain('(the `vision` trainer, another summary; preset `default`)');
  });

  it('refuse what they cannot build, with a ConfigError', () => {
    expect(() => buildTextProject(labOf('vision'), exportSettings('vision', 'default'), 'default')).toThrow(ConfigError);
    const reward = { source: 'function reward() { return 1; }', weight: 1 };
    expect(() => buildVisionProject(labOf('vision'), exportSettings('vision', 'default'), 'default', reward)).toThrow(/takes no reward function/);
  });

  it('read a preset’s settings from the lab as the CLI does, epsilon_high following epsilon', () => {
    for (const trainer of [...EXPORT_METHODS, 'vision'] as const) {
      for (const preset of Object.keys(TRAINERS[trainer].presets)) expect(labSettings(labOf(trainer), preset), `${trainer}/${preset}`).toEqual(exportSettings(trainer, preset));
    }
    const grpo = labSettings(labOf('grpo'), 'default', { epsilon: 0.3 });
    expect(grpo.epsilon_high).toBe(0.3);
    expect(changedFields(labOf('grpo'), 'default', grpo)).toEqual(['epsilon=0.3', 'epsilon_high=0.3']);
    expect(() => labSettings(labOf('sft'), 'nope')).toThrow(/unknown preset "nope" for sft/);
  });
});

describe('the mapping machinery (rules.ts)', () => {
  const schema = { lr: { kind: 'number', default: 0.5, min: 0, max: 1, reason: 'test' }, steps: { kind: 'number', default: 3, min: 1, max: 9, integer: true, reason: 'test' } } as const;
  const rules: Record<string, Rule> = {
    lr: (v) => ({ status: 'copied', config: [{ name: 'lr', value: v as number }], sft: [{ name: 'lr', value: v as number }], note: '' }),
    steps: (v) => ({ status: 'copied', data: 'scenes/*.jsonl', constant: { file: 'common.py', name: 'STEPS', value: v as number }, note: '' }),
  };

  it('writes float fields as floats in both phases, and a target naming every place a field went', () => {
    const out = mapFields('test', schema, rules, { lr: 1, steps: 3 }, 'GRPOConfig');
    expect(out.config).toEqual([{ name: 'lr', value: { code: '1.0' } }]);
    expect(out.sft).toEqual(out.config);
    expect(out.rows[0].target).toBe('SFTConfig(lr=1); GRPOConfig(lr=1)');
    expect(out.rows[1].target).toBe('common.py: STEPS = 3; scenes/*.jsonl');
    expect(out.constants).toEqual({ STEPS: { file: 'common.py', value: 3 } });
  });

  it('refuses a field without a rule, a missing setting and an unknown one', () => {
    expect(() => mapFields('test', schema, { lr: rules.lr }, { lr: 1, steps: 3 }, 'GRPOConfig')).toThrow(/no rule for the test field steps/);
    expect(() => mapFields('test', schema, rules, { lr: 1 }, 'GRPOConfig')).toThrow(ConfigError);
    expect(() => mapFields('test', schema, rules, { lr: 1, steps: 3, other: 2 }, 'GRPOConfig')).toThrow(/unknown field "other" for test/);
  });

  it('shares requirements.txt: the vision project adds Pillow and torchvision to the same pins', () => {
    const text = requirementsTxt().split('\n');
    const vision = visionRequirementsTxt().split('\n');
    for (const line of text.slice(1)) expect(vision).toContain(line);
    expect(vision[0]).toMatch(/Install torch and torchvision first, the builds/);
    expect(text[0]).toMatch(/Install torch first, the build /);
  });
});
