/** The team lab's claims: its presets, and chapter 10's teams section, whose sentences they rebuild from their runs. */
import { evalAt, last, pct, SEEDS } from './history';
import { checkByPrediction, perSeed } from './predict';
import { printedFigure, prosePct } from './prose';
import type { Claim, ClaimRun, Prediction } from './types';

/** Chapter 10's teams section: its sentences rebuilt from the team claims' runs (was a 64 s content test; now here). */
const TEAMS_CHAPTER = '10-beyond-the-calculator.mdx';

/** Each default run of both roles, as the protocol claims run it: seed 0 evaluated every 25 steps (the section says when it passes 95%). */
const TEAM_RUNS = Object.fromEntries(SEEDS.map((seed) => [`seed${seed}`, { trainer: 'team', overrides: { seed }, steps: 200, evalEvery: seed === 0 ? 25 : 100 } satisfies ClaimRun]));

const readsMessages: Prediction = {
  presets: ['default'],
  question: 'After 200 steps, blank the message channel at evaluation (the receiver sees the board, the sender’s message is gone). The trained team’s held-out accuracy will',
  choices: [
    { id: 'drop', label: 'drop by 30 points or more' },
    { id: 'hold', label: 'drop by less than 30 points' },
  ],
  claimed: 'drop',
  reads: ['eval/accuracy', 'eval/accuracy_blank_channel', 'eval/message_decodability'],
  steps: 200,
  seeds: SEEDS,
  why: 'Only the sender knows which position is the target, and the reward is shared: the receiver can beat a guess only by reading the message, and the sender earns only by sending one it reads. Once the messages name the target (decodable above 90%), the receiver’s answer depends on them, so taking them away leaves it guessing among four digits.',
  section: { file: TEAMS_CHAPTER, chapter: 'beyond-the-calculator', heading: 'What the team lab measured', anchor: 'what-the-team-lab-measured' },
  verdict: (run) => {
    const m = evalAt(run, 200);
    return {
      held: m['eval/message_decodability'] > 0.9 && m['eval/accuracy'] - m['eval/accuracy_blank_channel'] >= 0.3,
      measured: `held-out accuracy ${pct(m['eval/accuracy'])}, ${pct(m['eval/accuracy_blank_channel'])} with the channel blanked; messages decode to the target ${pct(m['eval/message_decodability'])} of the time (step 200)`,
    };
  },
  cases: perSeed('seed', SEEDS),
};

export const claims: readonly Claim[] = [
  {
    id: 'team-reads-its-messages',
    text: 'The team lab: after 200 steps of both roles, the messages say where the target is (decodability above 90%) and the receiver reads them (blanking the channel at evaluation costs it at least 30 points), on each of seeds 0, 1 and 2.',
    where: 'team preset default; the team lab; the teams section',
    runs: TEAM_RUNS,
    prediction: readsMessages,
    check: checkByPrediction(readsMessages),
  },
  {
    id: 'team-protocol-emerges',
    text: 'The team lab: with both roles trained, held-out team accuracy ends at least 30 points above the no-message ceiling on each of seeds 0, 1 and 2, and above what the receiver reaches alone with a frozen sender; the messages then say where the target is (decodability above 90%) and the receiver reads them (blanking the channel at evaluation costs it at least 30 points).',
    where: 'team presets default, no_message, frozen_sender; the team lab; the teams section',
    runs: {
      ...TEAM_RUNS,
      noMessage: { trainer: 'team', preset: 'no_message', steps: 200, evalEvery: 200 },
      frozen: { trainer: 'team', preset: 'frozen_sender', steps: 200, evalEvery: 200 },
    },
    check: (h, context) => {
      const seeds = [h.seed0, h.seed1, h.seed2].map(last);
      const [n, fz] = [last(h.noMessage)['eval/accuracy'], last(h.frozen)['eval/accuracy']];
      // What the messages say and whether the receiver reads them: team-reads-its-messages's own verdict, seed by seed.
      const ok = seeds.every((m) => m['eval/accuracy'] - n >= 0.3 && m['eval/accuracy'] > fz) && readsMessages.cases(h).every((c) => readsMessages.verdict(c.run).held);
      const curve = h.seed0.filter((l) => l.kind === 'eval');
      const start = curve[0].metrics;
      const crossed = curve.find((l) => l.metrics['eval/accuracy'] >= 0.95)?.step;
      const sentences = [
        `held-out team accuracy starts at ${prosePct(start['eval/accuracy'])}% (${prosePct(start['eval/accuracy_blank_channel'])}% with the channel blanked`,
        `On seed 0 it passes 95% at step ${crossed}`,
        `Over seeds 0, 1 and 2, after 200 steps the team ends at ${seeds.map((m) => `${prosePct(m['eval/accuracy'])}%`).join(', ').replace(/, ([^,]*)$/, ' and $1')}`,
        `the receiver can only guess: ${prosePct(n)}%`,
        `the receiver alone ends at ${prosePct(fz)}%, below the no-message ceiling`,
        `drops the trained default team to ${prosePct(seeds[0]['eval/accuracy_blank_channel'])}%`,
      ];
      const unprinted = sentences.map((x) => printedFigure(context, TEAMS_CHAPTER, x)).join('');
      return {
        holds: ok && unprinted === '',
        figure: `${unprinted}both trained ${seeds.map((m) => pct(m['eval/accuracy'])).join(', ')} (decodability ${seeds.map((m) => pct(m['eval/message_decodability'])).join(', ')}; blanked ${seeds.map((m) => pct(m['eval/accuracy_blank_channel'])).join(', ')}); no message ${pct(n)}; frozen sender ${pct(fz)}`,
      };
    },
  },
  {
    id: 'team-failures',
    text: 'Two ways the team fails: from scratch (no listener SFT) no protocol forms, the sender sends one message for every target and the team stays within 10 points of the no-message ceiling; and a receiver that learns ten times faster stops reading the channel (blanking it changes nothing) and ends below that ceiling, its sender a lazy partner whose one message says nothing.',
    where: 'team presets from_scratch, lazy_partner; the team lab; the teams section',
    runs: {
      scratch: { trainer: 'team', preset: 'from_scratch', steps: 200, evalEvery: 200 },
      lazy: { trainer: 'team', preset: 'lazy_partner', steps: 200, evalEvery: 200 },
      noMessage: { trainer: 'team', preset: 'no_message', steps: 200, evalEvery: 200 },
    },
    check: ({ scratch, lazy, noMessage }, context) => {
      const [s, l, n] = [last(scratch), last(lazy), last(noMessage)['eval/accuracy']];
      const unprinted = [
        `the run from_scratch ends at ${prosePct(s['eval/accuracy'])}%, its sender sending ${s['eval/distinct_messages']} message for every target`,
        `with the receiver learning 10 times faster (lazy_partner) the team ends at ${prosePct(l['eval/accuracy'])}%, and ${prosePct(l['eval/accuracy_blank_channel'])}% with the channel blanked`,
      ].map((x) => printedFigure(context, TEAMS_CHAPTER, x)).join('');
      return {
        holds:
          unprinted === '' &&
          Math.abs(s['eval/accuracy'] - n) <= 0.1 && s['eval/distinct_messages'] === 1 &&
          l['eval/accuracy'] < n && l['eval/distinct_messages'] === 1 && Math.abs(l['eval/accuracy'] - l['eval/accuracy_blank_channel']) <= 0.02,
        figure: `${unprinted}from scratch ${pct(s['eval/accuracy'])} (${s['eval/distinct_messages']} distinct message); receiver ten times faster ${pct(l['eval/accuracy'])}, blanked ${pct(l['eval/accuracy_blank_channel'])} (${l['eval/distinct_messages']} distinct message); no message ${pct(n)}`,
      };
    },
  },
];
