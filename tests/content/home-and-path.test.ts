/**
 * The home page's recorded run and lab times, and the learning path: the recorded files match their schemas and the
 * labs they describe, the chart draws exactly the recorded numbers, and every chapter, lab, exercise and anchor the
 * path names exists, the advanced stage's anchors into chapters 6 and 7 included.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { course } from '@/content/course';
import { exercises } from '@/content/exercises';
import { labTeaches } from '@/content/lab-cards';
import { labPresets, labs } from '@/content/labs';
import { stages } from '@/content/path';
import { homeRun, homeRunSchema, labTimes, labTimesSchema, totalSeconds } from '@/content/recorded-runs';
import homeRunJson from '@/content/home-run.json';
import { compileChapter } from '@/lib/content/compile';
import { ownEntry } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { aboutTime } from '@/app/_components/home/LabCards';
import { RunChart } from '@/app/_components/home/RunChart';
import { runChartModel } from '@/app/_components/home/run-chart';

describe('the recorded runs', () => {
  it('hold a seeded GRPO run of the lab’s default preset, every step and both end evaluations', () => {
    const run = homeRun();
    expect(run).toMatchObject({ lab: 'grpo', trainer: 'grpo', preset: labPresets(labs.find((l) => l.slug === 'grpo')!, trainerSettings('grpo').presets)[0], seed: 0, backend: 'wasm' });
    expect(run.history.filter((l) => l.kind === 'train')).toHaveLength(Number(run.config.max_steps));
    // Logged under the CLI's metric names.
    for (const name of ['loss', 'reward', 'reward_std', 'entropy']) expect(run.history.find((l) => l.kind === 'train')!.metrics).toHaveProperty(name);
    expect(run.history[0]).toMatchObject({ step: 0, kind: 'eval', metrics: { 'eval/accuracy': expect.any(Number) } });
  });

  it('time every lab’s default run, on its first preset and its max_steps', () => {
    const times = labTimes();
    for (const lab of labs) {
      const { presets, schema } = trainerSettings(lab.trainer);
      const preset = labPresets(lab, presets)[0];
      const t = times.labs[lab.slug];
      expect(t, lab.slug).toBeDefined();
      expect(t).toMatchObject({ trainer: lab.trainer, preset, seed: 0 });
      const maxSteps = (ownEntry(presets, preset)!.overrides as Record<string, unknown>).max_steps ?? (schema as Record<string, { default: unknown }>).max_steps.default;
      expect(t.max_steps, lab.slug).toBe(maxSteps);
      expect(totalSeconds(t)).toBeGreaterThan(0);
      expect(labTeaches[lab.slug], lab.slug).toBeTruthy();
    }
  });

  it('are refused by their schemas when edited into nonsense', () => {
    const broken = JSON.parse(JSON.stringify(homeRunJson));
    broken.history = broken.history.filter((l: { kind: string }) => l.kind === 'eval');
    expect(() => homeRunSchema.parse(broken)).toThrow(/every training step/);
    expect(() => labTimesSchema.parse({ ...labTimes(), labs: { grpo: { ...labTimes().labs.grpo, ms_per_step: -1 } } })).toThrow();
  });

  it('round times as a card says them', () => {
    expect([aboutTime(0.2), aboutTime(7.4), aboutTime(59.4), aboutTime(64), aboutTime(125)]).toEqual(['about 1 s', 'about 7 s', 'about 59 s', 'about 1 min', 'about 2 min 10 s']);
  });
});

describe('the home page’s chart', () => {
  const run = homeRun();
  const chart = runChartModel(run);

  it('draws exactly the recorded numbers', () => {
    const evals = run.history.filter((l) => l.kind === 'eval').map((l) => [l.step, l.metrics['eval/accuracy']]);
    const rewards = run.history.filter((l) => l.kind === 'train').map((l) => [l.step, l.metrics.reward]);
    expect(chart.accuracy.values).toEqual(evals);
    expect(chart.reward.values).toEqual(rewards);
    expect(chart.accuracy.points).toHaveLength(evals.length);
    expect(chart.yMax).toBeGreaterThanOrEqual(Math.max(...evals.map(([, v]) => v as number), ...rewards.map(([, v]) => v as number)));
    const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
    expect(chart.description).toContain(`from ${pct(evals[0][1] as number)} before training`);
    expect(chart.description).toContain(`ended at ${pct(evals.at(-1)![1] as number)} after step ${run.config.max_steps}`);
  });

  it('renders as SVG with a title, a description, axis labels and the link to run it, and no script', () => {
    const html = renderToStaticMarkup(RunChart());
    expect(html).toContain('role="img"');
    expect(html).toMatch(/<title id="run-chart-title">[^<]+<\/title><desc id="run-chart-desc">Held-out accuracy went from/);
    expect(html).toContain('>training step</text>');
    expect(html).toContain('>accuracy / reward</text>');
    expect(html).toContain(`d="${chart.accuracy.path}"`);
    expect(html).toContain(`d="${chart.reward.path}"`);
    expect(html).toContain('<a class="button" href="/labs/grpo/">Run it yourself</a>');
    expect(html).not.toMatch(/<script/);
  });
});

describe('the learning path', () => {
  it('gives every chapter and every exercise one stage, matching the exercise’s own', () => {
    const chapters = stages.flatMap((s) => s.chapters);
    expect([...chapters].sort()).toEqual(course.map((c) => c.slug).sort());
    for (const e of exercises) {
      const holders = stages.filter((s) => s.exercises.includes(e.id)).map((s) => s.id);
      expect(holders, e.id).toEqual([e.stage]);
    }
    expect(stages.map((s) => s.id)).toEqual(['foundation', 'advanced', 'expert']);
  });

  it('names labs that exist, and links only to pages and anchors that exist', async () => {
    const labSlugs = new Set<string>(labs.map((l) => l.slug));
    for (const stage of stages) for (const { slug } of stage.labs) expect(labSlugs.has(slug), slug).toBe(true);
    const problems: string[] = [];
    for (const { href } of stages.flatMap((s) => s.features)) {
      const chapter = /^\/chapters\/([a-z0-9-]+)\/#([a-z0-9-]+)$/.exec(href);
      const lab = /^\/labs\/([a-z0-9-]+)\/(?:\?preset=([a-z0-9_]+))?$/.exec(href);
      if (chapter) {
        const headings = (await compileChapter(chapter[1])).headings.map((h) => h.id);
        if (!headings.includes(chapter[2])) problems.push(`${href}: no such heading`);
      } else if (!lab || !labSlugs.has(lab[1])) problems.push(`${href}: not a chapter anchor or a lab`);
      else if (lab[2]) {
        const entry = labs.find((l) => l.slug === lab[1])!;
        if (!labPresets(entry, trainerSettings(entry.trainer).presets).includes(lab[2])) problems.push(`${href}: the lab offers no preset ${lab[2]}`);
      }
    }
    expect(problems).toEqual([]);
    // The advanced stage links the custom rewards, the sweeps and the TRL export.
    expect(stages[1].features.map((f) => f.href)).toEqual(
      expect.arrayContaining(['/chapters/grpo/#writing-your-own-reward', '/chapters/pipeline/#sweeps-and-seed-variance', '/chapters/pipeline/#take-it-to-a-real-gpu']),
    );
    // The expert stage links the agent lab's chapter 10 presets, each opening its own variant of the lab's page.
    expect(stages[2].features.map((f) => f.href)).toEqual(expect.arrayContaining(['/labs/agent/?preset=memory', '/labs/agent/?preset=reflect']));
  });
});
