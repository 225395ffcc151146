/** The team lab's claims: its presets, and chapter 10's teams section, whose sentences they rebuild from their runs. */
import { last, pct } from './history';
import { printedFigure, prosePct } from './prose';
import type { Claim, ClaimRun } from './types';

/** Chapter 10's teams section: its sentences rebuilt from the team claims' runs (was a 64 s content test; now here). */
const TEAMS_CHAPTER = '10-beyond-the-calculator.mdx';

export const claims: readonly Claim[] = [
  {
    id: 'team-protocol-emerges',
    text: 'The team lab: with both roles trained, held-out team accuracy ends at least 30 points above the no-message ceiling on each of seeds 0, 1 and 2, and above what the receiver reaches alone with a frozen sender; the messages then say where the target is (decodability above 90%) and the receiver reads them (blanking the channel at evaluation costs it at least 30 points).',
    where: 'team presets default, no_message, frozen_sender; the team lab; the teams section',
    runs: {
      // Seed 0 evaluates every 25 steps: the section says when it passes 95%.
      ...Object.fromEntries([0, 1, 2].map((seed) => [`seed${seed}`, { trainer: 'team', overrides: { seed }, steps: 200, evalEvery: seed === 0 ? 25 : 100 } satisfies ClaimRun])),
      noMessage: { trainer: 'team', preset: 'no_message', steps: 200, evalEvery: 200 },
      frozen: { trainer: 'team', preset: 'frozen_sender', steps: 200, evalEvery: 200 },
    },
    check: (h, context) => {
      const seeds = [h.seed0, h.seed1, h.seed2].map(last);
      const [n, fz] = [last(h.noMessage)['eval/accuracy'], last(h.frozen)['eval/accuracy']];
      const ok = seeds.every((m) => m['eval/accuracy'] - n >= 0.3 && m['eval/accuracy'] > fz && m['eval/message_decodability'] > 0.9 && m['eval/accuracy'] - m['eval/accuracy_blank_channel'] >= 0.3);
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
