/**
 * A lab page follows its preset: the variant a preset belongs to gives the page's title, summary and chapter section
 * (content/lab-variants.ts), and the charts a preset's settings cannot be about are not shown (chartsInView.ts). The
 * agent lab's memory and reflect presets are the case in point: chapter 10, their own metrics, no product-only chart.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { variantFor } from '@/content/lab-variants';
import { labNamed, labPresets, labs, type LabEntry } from '@/content/labs';
import { getChapterMeta } from '@/lib/content/chapters';
import { compileChapter } from '@/lib/content/compile';
import { trainerSettings } from '@/lib/spec/registry';
import { presetSettings } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import { AGENT_CHARTS } from '@/labs/agent/charts';
import { chartsInView, drawsRun } from '@/labs/shell/chartsInView';
import { MetricChart, type ChartRun } from '@/labs/shell/MetricChart';
import { LabIntro } from '@/app/_components/LabIntro';
import { LabCards } from '@/app/_components/home/LabCards';

const agent = labNamed('agent')!;
const { schema, presets } = trainerSettings('agent');
const settingsOf = (preset: string) => presetSettings(schema, presets[preset as keyof typeof presets]);
const face = (preset: string) => variantFor<Omit<LabEntry, 'slug' | 'trainer' | 'presets' | 'variants'>>(agent, agent.variants, preset);

describe('variantFor: the words a preset’s page shows', () => {
  it('gives the variant that lists the preset, the first that does, else the lab’s own words', () => {
    const own = { title: 'own' };
    const variants = [
      { title: 'a', presets: ['p1', 'p2'] },
      { title: 'b', presets: ['p3', 'p2'] },
    ];
    expect(['p1', 'p2', 'p3', 'p4'].map((p) => variantFor(own, variants, p).title)).toEqual(['a', 'a', 'b', 'own']);
    expect(variantFor(own, undefined, 'p1')).toBe(own);
    // A name from a link is matched exactly, never through the prototype.
    expect(variantFor(own, variants, 'constructor')).toBe(own);
  });

  it('sends the agent lab’s memory and reflect presets to chapter 10’s sections, the calculator presets to chapter 1', () => {
    for (const preset of ['memory', 'memory_no_tool']) {
      expect(face(preset)).toMatchObject({ chapter: 'beyond-the-calculator', section: 'memory-what-the-window-drops', title: expect.stringMatching(/memory/) });
    }
    expect(face('reflect')).toMatchObject({ chapter: 'beyond-the-calculator', section: 'reflection-trying-again-after-wrong', title: expect.stringMatching(/second try/) });
    for (const preset of ['default', 'no_tool', 'from_base', 'train_on_observations', 'tool_cost', 'multi_step', 'multi_step_no_tool', 'retry']) {
      expect(face(preset), preset).toMatchObject({ chapter: 'agentic-rl', title: 'An agent learns to use a calculator' });
    }
    // The memory and reflect summaries speak of their own task, not of products.
    expect(face('memory').summary).not.toMatch(/product/);
    expect(face('reflect').summary).toMatch(/"\?"/);
  });
});

describe('every lab’s variants', () => {
  const withVariants = labs.filter((lab): lab is typeof lab & Required<Pick<LabEntry, 'variants'>> => 'variants' in lab);

  it('exist (the agent lab’s), and cover presets the lab offers, each in one variant, never the lab’s first', () => {
    expect(withVariants.map((lab) => lab.slug)).toContain('agent');
    for (const lab of withVariants) {
      const offered = labPresets(lab, trainerSettings(lab.trainer).presets);
      const covered = lab.variants.flatMap((v) => v.presets);
      expect(covered.filter((p) => !offered.includes(p)), lab.slug).toEqual([]);
      expect(new Set(covered).size, `${lab.slug}: a preset in two variants`).toBe(covered.length);
      // The lab's own words are its first preset's: the cards, the chapter embed and the page's HTML show them.
      expect(covered, lab.slug).not.toContain(offered[0]);
    }
  });

  it('name a chapter that exists, and a section that is one of its headings', async () => {
    for (const lab of withVariants) {
      for (const variant of lab.variants) {
        expect(getChapterMeta(variant.chapter), variant.chapter).toBeDefined();
        if (variant.section) expect((await compileChapter(variant.chapter)).headings.map((h) => h.id), variant.title).toContain(variant.section);
      }
    }
  });
});

describe('the lab page’s heading', () => {
  const own = { title: 'An agent learns to use a calculator', summary: 'Products.', chapter: { href: '/chapters/agentic-rl/', name: 'chapter 1: Agentic RL' } };
  const memory = { title: 'Memory', summary: 'Facts.', chapter: { href: '/chapters/beyond-the-calculator/#memory-what-the-window-drops', name: 'chapter 10: Beyond', section: 'Memory: what the window drops' }, presets: ['memory'] };
  const html = (firstPreset: string) => renderToStaticMarkup(createElement(LabIntro, { own, variants: [memory], firstPreset, children: createElement('section', null, 'the lab') }));

  it('is rendered on the server for the lab’s first preset, with the lab inside', () => {
    expect(html('default')).toContain('<h1>An agent learns to use a calculator</h1><p class="lede">Products.</p>');
    expect(html('default')).toContain('<a href="/chapters/agentic-rl/">chapter 1: Agentic RL</a>.');
    expect(html('default')).toContain('<section>the lab</section>');
  });

  it('under a variant’s preset shows the variant’s title, summary and chapter section', () => {
    expect(html('memory')).toContain('<h1>Memory</h1><p class="lede">Facts.</p>');
    expect(html('memory')).toContain('<a href="/chapters/beyond-the-calculator/#memory-what-the-window-drops">chapter 10: Beyond</a>, in its section <em>Memory: what the window drops</em>.');
  });
});

describe('the agent lab’s charts follow the preset’s task', () => {
  const titles = (preset: string) => chartsInView(AGENT_CHARTS, settingsOf(preset), []).map((c) => c.title);
  const metrics = (preset: string) => chartsInView(AGENT_CHARTS, settingsOf(preset), []).flatMap((c) => c.metrics);
  /** Metrics about products and the calculator: hard products against times-table facts, what the calculator's tokens do. */
  const PRODUCT_ONLY = ['eval/accuracy_hard', 'eval/accuracy_easy', 'observations/mean_logprob', 'eval/fabricated_result_rate'];

  it('memory and memory_no_tool: memory use and accuracy, and no product or calculator chart', () => {
    for (const preset of ['memory', 'memory_no_tool']) {
      expect(metrics(preset), preset).toEqual(expect.arrayContaining(['eval/accuracy', 'eval/memory_use_rate', 'memory/use_rate', 'reward']));
      expect(metrics(preset).filter((m) => [...PRODUCT_ONLY, 'eval/tool_call_rate_hard', 'eval/tool_call_rate_easy', 'eval/first_try_accuracy', 'eval/retry_rate'].includes(m)), preset).toEqual([]);
      expect(titles(preset).filter((t) => /product|calculator/.test(t)), preset).toEqual([]);
    }
  });

  it('reflect: first-try accuracy, accuracy after the second try and the fix rate, and no product-only chart', () => {
    expect(metrics('reflect')).toEqual(expect.arrayContaining(['eval/first_try_accuracy', 'eval/accuracy', 'eval/fix_rate', 'reflection/fix_rate']));
    expect(metrics('reflect').filter((m) => [...PRODUCT_ONLY, 'eval/memory_use_rate', 'eval/retry_rate'].includes(m))).toEqual([]);
  });

  it('the calculator presets keep their charts, and show a chart only where their settings log it', () => {
    expect(metrics('default')).toEqual(expect.arrayContaining([...PRODUCT_ONLY, 'eval/tool_call_rate_hard']));
    expect(metrics('default').filter((m) => ['eval/memory_use_rate', 'eval/first_try_accuracy', 'eval/retry_rate'].includes(m))).toEqual([]);
    expect(metrics('retry')).toEqual(expect.arrayContaining(['eval/retry_rate', 'eval/recovery_rate']));
    // Without the calculator no tool token is in the episode, and nobody answers to be imitated.
    expect(metrics('no_tool').filter((m) => ['observations/mean_logprob', 'eval/fabricated_result_rate'].includes(m))).toEqual([]);
    // Charts about every task stay under every preset.
    for (const preset of Object.keys(presets)) expect(titles(preset), preset).toEqual(expect.arrayContaining(['Reward (mean and std)', 'Calls per episode (held-out)', 'Loss']));
  });

  it('a run of another task kept on the charts keeps its charts, and draws only in charts about its own settings', () => {
    const evalLine = (metrics: Record<string, number>): LogLine => ({ step: 2, kind: 'eval', metrics });
    const productRun: ChartRun = { label: 'run 1 (default)', settings: settingsOf('default'), history: [evalLine({ 'eval/accuracy': 0.9, 'eval/accuracy_hard': 0.88, 'eval/accuracy_easy': 1 })] };
    const memoryRun: ChartRun = { label: 'run 2 (memory)', settings: settingsOf('memory'), history: [evalLine({ 'eval/accuracy': 1, 'eval/accuracy_hard': 1, 'eval/memory_use_rate': 1 })] };
    const shown = chartsInView(AGENT_CHARTS, settingsOf('memory'), [productRun, memoryRun]);
    const accuracy = shown.find((c) => c.metrics.includes('eval/accuracy_hard'))!;
    expect(accuracy).toBeDefined();
    expect([drawsRun(accuracy, productRun), drawsRun(accuracy, memoryRun)]).toEqual([true, false]);
    const table = renderToStaticMarkup(createElement(MetricChart, { spec: accuracy, runs: [productRun, memoryRun] }));
    expect(table).toContain('hard products · run 1 (default)');
    expect(table).not.toContain('run 2 (memory)');
    // With the product run gone, the memory preset's page has no product chart at all.
    expect(chartsInView(AGENT_CHARTS, settingsOf('memory'), [memoryRun])).not.toContain(accuracy);
    // A run that does not say its settings (an old export) draws everywhere.
    expect(drawsRun(accuracy, { label: 'old', history: [] })).toBe(true);
  });
});

describe('the lab cards', () => {
  it('name and link each variant of a lab, on its first preset, with its chapter section', () => {
    const html = renderToStaticMarkup(LabCards({}));
    for (const variant of agent.variants!) {
      expect(html).toContain(`<a href="/labs/agent/?preset=${variant.presets[0]}">${variant.title}</a>`);
      expect(html).toContain(`<a href="/chapters/${variant.chapter}/#${variant.section}">chapter 10</a>`);
    }
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('Also in this lab: An agent learns to keep facts in a memory tool (presets memory and memory_no_tool, chapter 10); An agent gets a second try after “wrong” (presets reflect and reflect_feedback, chapter 10).');
  });
});
