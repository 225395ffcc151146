/**
 * The numbers the self-improvement section prints (chapter 10 once merged; before that the fragment at
 * $SELF_IMPROVE_SECTION), recomputed from the recorded runs of the lab's three presets (content/self-improve-runs.json,
 * `npm run record:self-improve`, seed 0, wasm). The recorded runs must still be the presets' runs: a changed preset
 * or default fails here until they are recorded again. `npm run claims` reruns the same runs and checks the claims.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import runsJson from '@/content/self-improve-runs.json';
import { SELF_IMPROVE_PRESETS, selfImproveRunsSchema } from '@/content/self-improve-runs';
import { presetSettings } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import type { LogLine } from '@/lib/train/run';
import { CLAIMS } from '../../scripts/claims/catalog';
import { expectPrinted } from './printed-numbers';

const recorded = selfImproveRunsSchema.parse(runsJson);
const pct = (x: number) => 100 * x;

/** The section's source: the fragment named by $SELF_IMPROVE_SECTION, else the chapter that holds the section. */
function sectionSource(): { file: string; text: string } | null {
  const fragment = process.env.SELF_IMPROVE_SECTION;
  if (fragment) return { file: fragment, text: fs.readFileSync(fragment, 'utf8') };
  const dir = 'content/chapters';
  for (const name of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (text.includes('\n## Self-improvement\n')) return { file: path.join(dir, name), text };
  }
  return null;
}

const trains = (h: LogLine[]) => h.filter((l) => l.kind === 'train').map((l) => l.metrics as Record<string, number>);
const target = (h: LogLine[]) => trains(h).map((m) => m['eval/accuracy_target']);
const runOf = (preset: (typeof SELF_IMPROVE_PRESETS)[number]) => recorded.runs[preset].history as LogLine[];

/** Every figure the section prints, by name: what the lead reads the sentences against. */
export function selfImproveFigures() {
  const [verifier, majority, sftOnly] = [runOf('default'), runOf('majority'), runOf('sft_only')];
  const rounds = trains(verifier).length - 1;
  const majorityPrecision = trains(majority).slice(1).map((m) => m.kept_precision);
  return {
    rounds,
    demoSteps: Number(recorded.runs.default.config.demo_steps),
    stepsPerRound: Number(recorded.runs.default.config.steps_per_round),
    verifierTarget: target(verifier).map(pct),
    sftOnlyTarget: target(sftOnly).map(pct),
    majorityTarget: target(majority).map(pct),
    fullScheduleTarget: target(runOf('full_schedule')).map(pct),
    fullScheduleStepsPerRound: Number(recorded.runs.full_schedule.config.steps_per_round),
    verifierSampleAccuracy: trains(verifier).slice(1).map((m) => pct(m.sample_accuracy)),
    majorityPrecision: majorityPrecision.map(pct),
    majorityWrongKept: trains(majority).slice(1).reduce((s, m) => s + m.kept_wrong, 0),
    majorityKept: trains(majority).slice(1).reduce((s, m) => s + m.kept, 0),
    cpuSeconds: Object.fromEntries(SELF_IMPROVE_PRESETS.map((p) => [p, recorded.runs[p].cpu_seconds])),
  };
}

describe('self-improvement section: the recorded runs', () => {
  it('are the presets’ runs as they stand (seed 0), each with every round and its evaluation', () => {
    const { schema, presets } = trainerSettings('self_improve');
    for (const preset of SELF_IMPROVE_PRESETS) {
      expect(recorded.runs[preset].config, preset).toEqual({ ...presetSettings(schema, presets[preset]), seed: 0 });
      const rounds = trains(runOf(preset)).map((m) => m.round);
      expect(rounds).toEqual(Array.from({ length: Number(recorded.runs[preset].config.max_steps) }, (_, i) => i));
    }
    // The same round 0 for all four: the presets differ only after the demonstrations, and full_schedule, which trains
    // round 0 in the run, ends it on the model the others load (every difficulty, and round 0's own loss logged once).
    expect(new Set(SELF_IMPROVE_PRESETS.map((p) => target(runOf(p))[0])).size).toBe(1);
    const round0Eval = (p: (typeof SELF_IMPROVE_PRESETS)[number]) => runOf(p).find((l) => l.kind === 'eval' && l.step === 1)!.metrics;
    for (const p of SELF_IMPROVE_PRESETS) expect(round0Eval(p), p).toEqual(round0Eval('full_schedule'));
    expect(trains(runOf('full_schedule'))[0].loss).toBeGreaterThan(0);
    expect(trains(runOf('default'))[0]).not.toHaveProperty('loss');
  });

  it('hold the claims the catalog makes of the same seeded runs (which `npm run claims` reruns from scratch, on seeds 0–2)', () => {
    for (const id of ['self-improve-verifier-lifts-target', 'self-improve-majority-precision', 'self-improve-majority-keeps-wrong', 'self-improve-full-schedule-round-0']) {
      const claim = CLAIMS.find((c) => c.id === id)!;
      // Only seed 0 is recorded: it stands in for every seed the claim runs, so this checks the verdict on the runs
      // the section prints; `npm run claims` runs seeds 1 and 2 too.
      const histories = Object.fromEntries(
        Object.entries(claim.runs).map(([name, run]) => {
          expect(run.steps, `${id}: the claim runs the recorded length`).toBe(recorded.runs[run.preset as (typeof SELF_IMPROVE_PRESETS)[number]].config.max_steps);
          expect([0, 1, 2]).toContain(run.overrides?.seed);
          return [name, runOf(run.preset as (typeof SELF_IMPROVE_PRESETS)[number])];
        }),
      );
      const verdict = claim.check(histories);
      expect(verdict.holds, `${claim.text} — measured: ${verdict.figure}`).toBe(true);
    }
  });

  it('computes the section’s figures (printed for the lead), and the section prints them where it is found', () => {
    const f = selfImproveFigures();
    console.log(`self-improvement figures: ${JSON.stringify(f)}`);
    expect(f.majorityPrecision.every((p) => p >= 0 && p <= 100)).toBe(true);
    const source = sectionSource();
    if (!source) return; // the section is not in a chapter yet: the figures above are what it must print
    const t = source.text;
    const [v, s, m] = [f.verifierTarget, f.sftOnlyTarget, f.majorityTarget];
    const p1 = (x: number) => x.toFixed(1); // accuracies on 200 problems are multiples of 0.5%
    const count = (n: number) => n.toLocaleString('en-US');
    const [pMin, pMax] = [Math.min(...f.majorityPrecision), Math.max(...f.majorityPrecision)];
    const config = recorded.runs.default.config;
    expectPrinted(t, `from ${p1(v[0])}% after round 0 to ${p1(v.at(-1)!)}% after round ${f.rounds}`, [v[0], null, v.at(-1)!, f.rounds]);
    expectPrinted(t, `round by round ${v.slice(1, -2).map((x) => `${p1(x)}%`).join(', ')} and ${p1(v.at(-2)!)}% in between`, v.slice(1, -1));
    const samplesPerRound = Number(config.num_prompts) * Number(config.num_generations);
    const sampled = f.verifierSampleAccuracy;
    expectPrinted(t, `among the ${count(samplesPerRound)} drawn each round rose from ${Math.round(sampled[0])}% to ${Math.round(sampled.at(-1)!)}%`, [samplesPerRound, sampled[0], sampled.at(-1)!]);
    // Both differences as the course prints points: one decimal, no trailing zero (lib/claims/prose.ts).
    const points = (x: number) => p1(x).replace(/\.0$/, '');
    expectPrinted(t, `(${points(v.at(-1)! - v[0])} points against ${points(s.at(-1)! - s[0])})`, [v.at(-1)! - v[0], s.at(-1)! - s[0]]);
    expect(v.at(-1)! - v[0], 'more than three times as much').toBeGreaterThan(3 * (s.at(-1)! - s[0]));
    expect(Math.abs(f.majorityWrongKept / f.majorityKept - 7 / 8), 'about seven in eight kept samples teach an error').toBeLessThan(0.02);
    expect(t).toContain('about seven in eight kept samples teach an error');
    expectPrinted(t, `samples ${config.num_generations} answers to each of ${count(Number(config.num_prompts))} 3-column problems, keeps what the filter accepts, and fine-tunes for ${config.steps_per_round} steps`, [Number(config.num_generations), Number(config.num_prompts), Number(config.target_digits), Number(config.steps_per_round)]);
    expectPrinted(t, `the same ${count(f.rounds * f.stepsPerRound)} fine-tuning steps on the demonstrations alone end at ${p1(s.at(-1)!)}%`, [f.rounds * f.stepsPerRound, s.at(-1)!]);
    expectPrinted(t, `majority vote kept ${count(f.majorityKept)} samples, ${count(f.majorityWrongKept)} of them wrong`, [f.majorityKept, f.majorityWrongKept]);
    expectPrinted(t, `precision between ${p1(pMin)}% and ${p1(pMax)}%`, [pMin, pMax]);
    expectPrinted(t, `its 3-digit accuracy went from ${p1(m[0])}% to ${p1(m.at(-1)!)}%`, [Number(config.target_digits), m[0], m.at(-1)!]);
    expectPrinted(t, `Round 0 is plain SFT on the demonstrations for ${count(f.demoSteps)} steps`, [null, f.demoSteps]);
    const full = f.fullScheduleTarget;
    expectPrinted(t, `The full schedule, ${f.fullScheduleStepsPerRound} fine-tuning steps a round with round 0 trained in the run, ended at ${p1(full.at(-1)!)}%`, [f.fullScheduleStepsPerRound, null, full.at(-1)!]);
    expectPrinted(t, `(${f.fullScheduleStepsPerRound} steps under \`full_schedule\`)`, [f.fullScheduleStepsPerRound]);
    // How long the run takes is the lab card's, from the one record (content/lab-times.json), never typed here.
    expect(t).not.toMatch(/default run takes about \d+ seconds/);
    expect(t).toContain("How long the default run takes in a browser is on the [lab's card](/labs/)");
  });
});
