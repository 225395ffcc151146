import type { Metadata } from 'next';
import { exercises } from '@/content/exercises';
import { getChapters } from '@/lib/content/chapters';
import { HandIn } from '@/app/_components/exercises/HandIn';
import { ExercisePassed } from '@/app/_components/exercises/ExercisePassed';
import '@/app/_components/exercises/exercises.css';

export const metadata: Metadata = { title: 'Code exercises', description: 'Every code exercise of the course, and where students hand in an assignment’s exercises.' };

export default function ExercisesPage() {
  const chapters = new Map(getChapters().map((c) => [c.slug, c]));
  // data-boot-eager: what the hand-in part shows depends on the address's hash, so the page starts without waiting
  // for the reader (app/_components/boot/deferred-boot.ts).
  return (
    <main className="page exercises-page" data-boot-eager="">
      <h1>Code exercises</h1>
      <p className="lede">
        Each exercise asks for one piece of the training code in plain JavaScript and checks it at once, on random
        cases, against the functions the labs train with. They live in their chapters; your passes are kept on this
        device and shown on the <a href="/path/">learning path</a>.
      </p>
      <HandIn />
      <h2>All exercises</h2>
      <ul className="exercise-index">
        {exercises.map((e) => {
          const chapter = chapters.get(e.chapter)!;
          return (
            <li key={e.id}>
              <a href={`/chapters/${e.chapter}/#exercise-${e.id}`}>{e.title}</a> <ExercisePassed id={e.id} />
              <span className="card-meta">
                {' '}
                · chapter {chapter.number}, {chapter.title}
              </span>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
