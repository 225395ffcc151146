import { Fragment } from 'react';
import { labs, presetLink, type LabEntry } from '@/content/labs';
import { labTeaches } from '@/content/lab-cards';
import { labTimes, totalSeconds, type LabTimes } from '@/content/recorded-runs';
import { getChapterMeta } from '@/lib/content/chapters';
import './home.css';

/** "about 7 s", "about 1 min 20 s": a measured time, rounded for a card. */
export function aboutTime(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  const s = Math.round(seconds / 10) * 10;
  return `about ${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

/**
 * How long a lab's default run takes, from the one record (content/lab-times.json): in the browser where it was timed
 * there (npm run record:browser-times), else the CPU time of one core in Node (npm run record:runs).
 */
export function cardTime(times: LabTimes, lab: LabEntry): string {
  const slug = lab.slug;
  const steps = (n: number) => `${n.toLocaleString('en-US')} ${lab.stepUnit ?? 'steps'}`;
  const inBrowser = times.browser?.labs[slug];
  if (inBrowser) return `Trains in ${aboutTime(inBrowser.seconds)} in a browser without a GPU (${steps(inBrowser.max_steps)}, ${inBrowser.backend})`;
  const time = times.labs[slug];
  return time ? `Trains in ${aboutTime(totalSeconds(time))} on a CPU core (${steps(time.max_steps)}, WebAssembly)` : 'Training time not measured yet';
}

/** A lab's variants (presets that train another task), each linked to its first preset, with its chapter section. */
function VariantLinks({ lab }: { lab: LabEntry }) {
  if (!lab.variants?.length) return null;
  return (
    <p className="lab-card-variants">
      <strong>Also in this lab:</strong>{' '}
      {lab.variants.map((variant, i) => {
        const chapter = getChapterMeta(variant.chapter);
        return (
          <Fragment key={variant.presets[0]}>
            {i > 0 ? '; ' : ''}
            <a href={presetLink(lab, variant.presets[0])}>{variant.title}</a> ({variant.presets.length > 1 ? 'presets' : 'preset'}{' '}
            {variant.presets.map((preset, p) => (
              <Fragment key={preset}>
                {p > 0 ? (p === variant.presets.length - 1 ? ' and ' : ', ') : ''}
                <code>{preset}</code>
              </Fragment>
            ))}
            {chapter ? (
              <>
                , <a href={`/chapters/${chapter.slug}/${variant.section ? `#${variant.section}` : ''}`}>chapter {chapter.number}</a>
              </>
            ) : null}
            )
          </Fragment>
        );
      })}
      .
    </p>
  );
}

/**
 * The labs as cards: what each trains and teaches, its chapter, and how long its default run takes, measured by
 * `npm run record:runs` (CPU time of one core, wasm). Server-rendered; no script.
 */
export function LabCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const times = labTimes();
  const Heading = `h${headingLevel}` as const;
  return (
    <>
      <ul className="lab-cards">
        {labs.map((lab) => {
          const time = times.labs[lab.slug];
          const chapter = getChapterMeta(lab.chapter);
          return (
            <li key={lab.slug} className="lab-card">
              <Heading className="lab-card-title">
                <a href={`/labs/${lab.slug}/`}>{lab.title}</a>
              </Heading>
              <p>{lab.summary}</p>
              <VariantLinks lab={lab} />
              <p className="lab-card-teaches">
                <strong>Teaches:</strong> {labTeaches[lab.slug]}
              </p>
              <p className="card-meta">
                {cardTime(times, lab)}
                {chapter ? (
                  <>
                    {' · '}
                    <a href={`/chapters/${lab.chapter}/`}>chapter {chapter.number}</a>
                  </>
                ) : null}
              </p>
            </li>
          );
        })}
      </ul>
      <p className="setting-help lab-cards-note">
        {times.browser ? (
          <>
            Times are measured, not guessed: each lab&apos;s default run in {times.browser.browser}, from Train to its last step (the model&apos;s build
            and every evaluation included), recorded with <code>{times.browser.command}</code> on {times.browser.machine.cpu},{' '}
            {times.browser.machine.cores} cores, no GPU. A real GPU takes less; a busier or older laptop, more.
          </>
        ) : (
          <>
            Times are measured, not guessed: each lab&apos;s default run from start to finish, recorded with <code>{times.command}</code> as the CPU
            time of one core (measured on: {times.machine.cpu}, {times.machine.cores} cores, Node {times.machine.node}, tfjs {times.machine.tfjs} on
            WebAssembly). A browser adds a little; a real GPU takes less.
          </>
        )}
      </p>
    </>
  );
}
