import { ContinueReading } from './_components/progress/ContinueReading';
import { ChapterMark } from './_components/progress/ProgressWidgets';
import { getChapters } from '@/lib/content/chapters';
import { LabCards } from './_components/home/LabCards';
import { RunChart } from './_components/home/RunChart';

export default function HomePage() {
  const chapters = getChapters();
  const parts = [...new Set(chapters.map((c) => c.part))];
  return (
    <main className="home">
      <section className="hero">
        <h1>Agentic RL Lab</h1>
        <p className="lede">
          How large language models become agents trained with reinforcement learning: the MDP view, SFT and LoRA,
          PPO, DPO, GRPO and the newest research. Every algorithm comes with a lab that trains a tiny model in your
          browser, on your GPU if you have one and on your CPU if you do not.
        </p>
        <ContinueReading chapters={chapters.map(({ slug, title, number }) => ({ slug, title, number }))} />
        <p className="home-path">
          Three stages, from reading to doing: <a href="/path/">follow the learning path</a>.
        </p>
      </section>
      <section id="a-run" aria-labelledby="a-run-title">
        <h2 id="a-run-title">What a lab does: a real run</h2>
        <p>
          A tiny model that half-learned 2-digit addition from supervised fine-tuning, trained further with GRPO in the
          GRPO lab. This is a run the course recorded, not a drawing.
        </p>
        <RunChart />
      </section>
      <section id="chapters" aria-labelledby="chapters-title">
        <h2 id="chapters-title">The course</h2>
        {parts.map((part) => (
          <div key={part} className="part">
            <h3>{part}</h3>
            <ol className="chapter-cards">
              {chapters
                .filter((c) => c.part === part)
                .map((c) => (
                  <li key={c.slug} className="chapter-card">
                    <a href={`/chapters/${c.slug}/`}>
                      <span className="card-number">Chapter {c.number}</span>
                      <span className="card-title">
                        <ChapterMark slug={c.slug} />
                        {c.title}
                      </span>
                    </a>
                    <p>{c.summary}</p>
                    <p className="card-meta">{c.minutes} min</p>
                  </li>
                ))}
            </ol>
          </div>
        ))}
      </section>
      <section id="labs" aria-labelledby="labs-title">
        <h2 id="labs-title">The labs</h2>
        <LabCards />
      </section>
    </main>
  );
}
