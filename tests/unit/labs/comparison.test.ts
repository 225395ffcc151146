/**
 * The labs' comparisons (labs/shell/comparison.ts): every run on the form's seed and one length, the preset's own
 * settings otherwise, the line said before the click; and every comparison a chapter asks for is in its lab's list,
 * naming presets the lab offers.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { labPresets, labs } from '@/content/labs';
import { TRAINERS } from '@/lib/spec/registry';
import { presetSettings } from '@/lib/train/config';
import { comparisonLength, comparisonPlan, comparisonSettings } from '@/labs/shell/comparison';
import type { LabComparison } from '@/labs/shell/labDefinition';

const { schema: agentSchema, presets: agentPresets } = TRAINERS.agent;
const memory: LabComparison = { label: 'memory against memory_no_tool', presets: ['memory', 'memory_no_tool'], columns: [] };
const masking: LabComparison = { label: 'default against train_on_observations', presets: ['default', 'train_on_observations'], columns: [] };
const form = (preset: string, changes: Record<string, number> = {}) => ({ preset, settings: { ...presetSettings(agentSchema, agentPresets[preset]), ...changes } });

describe('a comparison’s runs', () => {
  it('take the compared presets’ own length unless the reader set one, and the form’s seed', () => {
    // The presets' own lengths, read from the registry: memory's 40 steps, default's and train_on_observations' differ.
    const own = (p: string) => presetSettings(agentSchema, agentPresets[p]).max_steps as number;
    expect(own('memory')).toBe(own('memory_no_tool'));
    expect(own('default')).toBeLessThan(own('train_on_observations'));
    // From the default preset, untouched: each comparison runs at its presets' length, the longest where they differ.
    expect(comparisonLength(agentSchema, agentPresets, memory, form('default'))).toBe(own('memory'));
    expect(comparisonLength(agentSchema, agentPresets, masking, form('default'))).toBe(own('train_on_observations'));
    // A length the reader typed (it differs from the form's preset's) is every run's.
    expect(comparisonLength(agentSchema, agentPresets, memory, form('default', { max_steps: 3 }))).toBe(3);
    expect(comparisonLength(agentSchema, agentPresets, masking, form('memory', { max_steps: own('default') }))).toBe(own('default'));

    const chosen = comparisonSettings(agentSchema, agentPresets, memory, form('reflect', { seed: 7, max_steps: 2 }), 'memory_no_tool');
    expect(chosen).toEqual({ ...presetSettings(agentSchema, agentPresets.memory_no_tool), seed: 7, max_steps: 2 });
    expect(chosen.use_tools).toBe(false);
  });

  it('refuses a preset the lab does not offer, naming it', () => {
    const broken: LabComparison = { label: 'a typo', presets: ['memory', 'memory_no_tools'], columns: [] };
    expect(() => comparisonSettings(agentSchema, agentPresets, broken, form('default'), 'memory_no_tools')).toThrow(/"memory_no_tools", which this lab does not offer/);
  });

  it('says before the click what it runs, how long and on which seed, in the lab’s own word for a step', () => {
    expect(comparisonPlan(agentSchema, agentPresets, memory, form('default', { seed: 2 }))).toBe('Runs memory, then memory_no_tool, 40 steps each on seed 2.');
    const { schema, presets } = TRAINERS.self_improve;
    const rounds = presetSettings(schema, presets.default).max_steps as number;
    const three: LabComparison = { label: 'x', presets: ['default', 'sft_only', 'majority'], columns: [] };
    expect(comparisonPlan(schema, presets, three, { preset: 'default', settings: presetSettings(schema, presets.default) }, 'round')).toBe(
      `Runs default, sft_only, then majority, ${rounds} rounds each on seed 0.`,
    );
    expect(comparisonPlan(schema, presets, three, { preset: 'default', settings: { ...presetSettings(schema, presets.default), max_steps: 1 } }, 'round')).toContain('1 round each');
  });
});

/** The comparisons written in a lab's Lab.tsx: each one's presets, in order. */
function comparisonsOf(slug: string): string[][] {
  const source = fs.readFileSync(`labs/${slug}/Lab.tsx`, 'utf8');
  const block = source.slice(source.indexOf('comparisons: ['));
  if (!source.includes('comparisons: [')) return [];
  return [...block.matchAll(/^ {6}presets: \[([^\]]*)\]/gm)].map((m) => [...m[1].matchAll(/'([^']+)'/g)].map((q) => q[1]));
}

describe('the labs’ comparisons', () => {
  it('include every comparison the chapters ask for, the run compared to named first', () => {
    const asked: [slug: string, presets: string[]][] = [
      ['grpo', ['grpo_paper', 'dr_grpo', 'dapo', 'gspo']], // chapters 6 and 8
      ['vision', ['default', 'text_only']], // chapter 10: the floor
      ['self-improve', ['default', 'sft_only']], // chapter 10: the control
      ['self-improve', ['default', 'majority']], // chapter 10: no verifier
      ['team', ['default', 'no_message']], // chapter 10: what the channel carries
      ['agent', ['memory', 'memory_no_tool']], // chapters 1 and 10
      ['agent', ['default', 'train_on_observations']], // chapter 1: the masking bug
      ['ppo', ['aggressive_clipped', 'no_clipping']], // chapter 4: the clip is what saves them
      ['lora', ['full_ft', 'lora_r1', 'lora_r4', 'lora_r16', 'lora_r16_rslora', 'full_ft_replay']], // chapter 2's table
    ];
    for (const [slug, presets] of asked) expect(comparisonsOf(slug), slug).toContainEqual(presets);
  });

  it('name only presets their lab offers', () => {
    expect(labs.filter((lab) => comparisonsOf(lab.slug).length > 0).length).toBeGreaterThanOrEqual(7);
    for (const lab of labs) {
      const offered = labPresets(lab, TRAINERS[lab.trainer].presets);
      for (const presets of comparisonsOf(lab.slug)) expect(presets.filter((p) => !offered.includes(p)), lab.slug).toEqual([]);
    }
  });
});
