import type { Metadata } from 'next';
import { TexMath, TexText } from '@/app/_components/Tex';
import { notation, type NotationEntry } from '@/content/notation';
import { getChapterMeta } from '@/lib/content/chapters';

export const metadata: Metadata = {
  title: 'Notation',
  description: 'Every symbol the course uses, once, with its meaning and its name in TRL v1.13.',
};

function chapterLink(slug: string) {
  const meta = getChapterMeta(slug);
  return meta ? (
    <a href={`/chapters/${slug}/`}>
      {meta.number}. {meta.title}
    </a>
  ) : (
    slug
  );
}

function NotationTable({ entries, caption, scoped }: { entries: readonly NotationEntry[]; caption: string; scoped?: boolean }) {
  return (
    <table tabIndex={0} className="reference-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Symbol</th>
          <th scope="col">Meaning</th>
          <th scope="col">TRL v1.13 name</th>
          <th scope="col">{scoped ? 'Only in' : 'Introduced in'}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((n) => (
          <tr key={n.id} id={n.id}>
            <td>
              <TexMath source={n.symbol} />
            </td>
            <td>
              <TexText source={n.meaning} />
            </td>
            <td>{n.trl ? <code>{n.trl}</code> : '—'}</td>
            <td>
              {(scoped ? (n.scope ?? []) : [n.chapter]).map((slug, i) => (
                <span key={slug}>
                  {i > 0 ? ', ' : null}
                  {chapterLink(slug)}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function NotationPage() {
  const courseWide = notation.filter((n) => !n.scope);
  const local = notation.filter((n) => n.scope);
  return (
    <main className="page">
      <h1>Notation</h1>
      <p className="lede">
        One symbol per idea, the same on every page. The prompt is <TexMath source="x" /> and the completion{' '}
        <TexMath source="y" /> (the GRPO paper&apos;s <TexMath source="q" /> and <TexMath source="o" /> would clash with
        the observations <TexMath source="o_t" /> of agentic RL); the importance ratio is <TexMath source="\rho" />{' '}
        everywhere. Where TRL v1.13 has a config field or a logged metric for a quantity, its name is given (PPO&apos;s
        are TRL v1.9&apos;s: v1.13 no longer ships PPOConfig).
      </p>
      <NotationTable entries={courseWide} caption="Symbols used across the course" />
      <h2 id="chapter-local">Chapter-local letters</h2>
      <p>
        These letters follow the papers a single chapter teaches from (the Megatron papers in chapter 3, LoRA in chapter
        2, pass@k in chapter 7) and mean the following only in the chapters named.
      </p>
      <NotationTable entries={local} caption="Letters with a chapter-local meaning" scoped />
      <p>
        See also the <a href="/glossary/">glossary</a> of terms and the <a href="/references/">references</a>.
      </p>
    </main>
  );
}
