import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/train/start';
import { teamPresets } from '@/lib/train/team-config';
import { expectPrinted } from './printed-numbers';

// The teams section (issue 36): every figure it prints from the team lab is recomputed here from the same seeded runs
// (wasm, as `npm run train -- team --backend wasm --preset NAME` runs them, 200 steps), and compared with its digits.
// The section lives in the chapter that has the heading (chapter 10).
const HEADING = '## Teams of agents';
const chapters = fs.readdirSync('content/chapters').map((f) => `content/chapters/${f}`);
const home = chapters.find((file) => fs.readFileSync(file, 'utf8').includes(HEADING));
if (!home) throw new Error(`no chapter has the heading "${HEADING}"`);
const source = fs.readFileSync(home, 'utf8');

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const STEPS = 200;

async function run(preset: keyof typeof teamPresets, seed = 0, evalEvery = STEPS): Promise<LogLine[]> {
  const { trainer } = await startTrainer('team', { overrides: { ...teamPresets[preset].overrides, seed }, readCheckpoint });
  const training = new TrainingRun(trainer, { maxSteps: STEPS, evalEvery });
  expect(await training.run(), training.error ?? '').toBe('done');
  trainer.dispose();
  return training.history;
}
const evalsOf = (h: LogLine[]) => h.filter((l) => l.kind === 'eval');
const final = (h: LogLine[]) => evalsOf(h).at(-1)!.metrics;
const pct = (x: number) => 100 * x;

const runs: Record<string, LogLine[]> = {};
beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
  runs.default0 = await run('default', 0, 25);
  runs.default1 = await run('default', 1);
  runs.default2 = await run('default', 2);
  for (const preset of ['no_message', 'frozen_sender', 'from_scratch', 'lazy_partner'] as const) runs[preset] = await run(preset);
}, 600_000);

describe('the teams section prints what the team lab measures', () => {
  it('finds the section', () => {
    expect(source).toContain(HEADING);
  });

  it('the default run: where it starts, when it crosses 95%, and where the three seeds end', () => {
    const curve = evalsOf(runs.default0);
    const start = curve[0].metrics;
    const crossed = curve.find((l) => l.metrics['eval/accuracy'] >= 0.95)!.step;
    const ends = [runs.default0, runs.default1, runs.default2].map((h) => pct(final(h)['eval/accuracy']));
    expectPrinted(source, SNIPPETS.start, [pct(start['eval/accuracy']), pct(start['eval/accuracy_blank_channel'])]);
    expectPrinted(source, SNIPPETS.crossed, [null, null, crossed]);
    expectPrinted(source, SNIPPETS.ends, [null, null, null, STEPS, ...ends]);
  });

  it('the ablations and failures, after 200 steps', () => {
    const m = (k: string) => final(runs[k]);
    expectPrinted(source, SNIPPETS.noMessage, [pct(m('no_message')['eval/accuracy'])]);
    expectPrinted(source, SNIPPETS.frozen, [pct(m('frozen_sender')['eval/accuracy'])]);
    expectPrinted(source, SNIPPETS.scratch, [pct(m('from_scratch')['eval/accuracy']), m('from_scratch')['eval/distinct_messages']]);
    expectPrinted(source, SNIPPETS.lazy, [null, pct(m('lazy_partner')['eval/accuracy']), pct(m('lazy_partner')['eval/accuracy_blank_channel'])]);
    expectPrinted(source, SNIPPETS.blanked, [pct(final(runs.default0)['eval/accuracy_blank_channel'])]);
  });
});

/** The sentences of the section that carry the lab's numbers, word for word. */
const SNIPPETS = {
  start: 'held-out team accuracy starts at 28% (31% with the channel blanked',
  crossed: 'On seed 0 it passes 95% at step 125',
  ends: 'Over seeds 0, 1 and 2, after 200 steps the team ends at 100%, 99.5% and 100%',
  noMessage: 'the receiver can only guess: 32.5%',
  frozen: 'the receiver alone ends at 24%, below the no-message ceiling',
  scratch: 'the run from_scratch ends at 27.5%, its sender sending 1 message for every target',
  lazy: 'with the receiver learning 10 times faster (lazy_partner) the team ends at 9%, and 9% with the channel blanked',
  blanked: 'drops the trained default team to 32.5%',
};
