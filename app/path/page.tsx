import type { Metadata } from 'next';
import { exerciseNamed } from '@/content/exercises';
import { labNamed } from '@/content/labs';
import { stages } from '@/content/path';
import { getChapterMeta } from '@/lib/content/chapters';
import { compileChapter } from '@/lib/content/compile';
import { ExercisePassed } from '@/app/_components/exercises/ExercisePassed';
import { ChapterMark, LabTrained } from '@/app/_components/progress/ProgressWidgets';
import { NextStep, QuizTally, StageProgress, type PathItem } from '@/app/_components/path/StageProgress';
import './path.css';

export const metadata: Metadata = {
  title: 'Learning path',
  description: 'The course in three stages, foundation, advanced and expert: the chapters, quizzes, labs and exercises of each, with your progress.',
};

/** The three stages of the course plan, rendered on the server; only the progress marks are client components. */
export default async function PathPage() {
  // Each chapter's quiz ids, as its compiled source lists them (the same compilation the chapter page uses).
  const quizIds = new Map(await Promise.all(stages.flatMap((s) => s.chapters).map(async (slug) => [slug, (await compileChapter(slug)).quizIds] as const)));
  // Everything the path asks for, stage by stage, in the order a reader meets it: each chapter, then its quizzes, then
  // the stage's labs and exercises. The first not done is "Next".
  const items: PathItem[] = stages.flatMap((stage) => [
    ...stage.chapters.flatMap((slug): PathItem[] => {
      const chapter = getChapterMeta(slug)!;
      const href = `/chapters/${slug}/`;
      return [
        { kind: 'chapter', id: slug, label: `read chapter ${chapter.number}, ${chapter.title}`, href },
        ...(quizIds.get(slug) ?? []).map((id): PathItem => ({ kind: 'quiz', id, label: `answer the quizzes of chapter ${chapter.number}`, href })),
      ];
    }),
    ...stage.labs.map(({ slug }): PathItem => ({ kind: 'lab', id: slug, label: `train the lab ${labNamed(slug)!.title}`, href: `/labs/${slug}/` })),
    ...stage.exercises.map((id): PathItem => {
      const exercise = exerciseNamed(id)!;
      return { kind: 'exercise', id, label: `the exercise ${exercise.title}`, href: `/chapters/${exercise.chapter}/#exercise-${id}` };
    }),
  ]);
  return (
    <main className="page path-page">
      <h1>Learning path</h1>
      <p className="lede">
        From reading to doing, in three stages. Each asks you to read its chapters and answer their quizzes, to train
        its labs, and to write the core pieces yourself in exercises that check themselves. Your progress is kept on
        this device.
      </p>
      <NextStep items={items} />
      <nav aria-label="Stages" className="path-stages-nav">
        {stages.map((stage, i) => (
          <a key={stage.id} href={`#${stage.id}`}>
            {i + 1}. {stage.title}
          </a>
        ))}
      </nav>
      <ol className="path-stages">
        {stages.map((stage, i) => {
          const quizzes = stage.chapters.flatMap((slug) => quizIds.get(slug) ?? []);
          return (
            <li key={stage.id} className="path-stage" id={stage.id}>
              <h2 id={`${stage.id}-title`}>
                Stage {i + 1}: {stage.title}
              </h2>
              <p>{stage.summary}</p>
              <StageProgress chapters={stage.chapters} quizzes={quizzes} exercises={stage.exercises} labs={stage.labs.map((l) => l.slug)} />
              <div className="path-columns">
                <section aria-labelledby={`${stage.id}-read`}>
                  <h3 id={`${stage.id}-read`}>Read</h3>
                  <ul>
                    {stage.chapters.map((slug) => {
                      const chapter = getChapterMeta(slug)!;
                      return (
                        <li key={slug}>
                          <ChapterMark slug={slug} />
                          <a href={`/chapters/${slug}/`}>
                            {chapter.number}. {chapter.title}
                          </a>
                          <QuizTally ids={quizIds.get(slug) ?? []} />
                        </li>
                      );
                    })}
                  </ul>
                </section>
                <section aria-labelledby={`${stage.id}-train`}>
                  <h3 id={`${stage.id}-train`}>Train</h3>
                  <ul>
                    {stage.labs.map(({ slug, task }) => (
                      <li key={slug}>
                        <a href={`/labs/${slug}/`}>{labNamed(slug)!.title}</a>: {task} <LabTrained slug={slug} />
                      </li>
                    ))}
                  </ul>
                </section>
                {stage.exercises.length > 0 ? (
                  <section aria-labelledby={`${stage.id}-write`}>
                    <h3 id={`${stage.id}-write`}>Write</h3>
                    <ul>
                      {stage.exercises.map((id) => {
                        const exercise = exerciseNamed(id)!;
                        return (
                          <li key={id}>
                            <a href={`/chapters/${exercise.chapter}/#exercise-${id}`}>{exercise.title}</a> <ExercisePassed id={id} />
                          </li>
                        );
                      })}
                    </ul>
                  </section>
                ) : null}
                {stage.features.length > 0 ? (
                  <section aria-labelledby={`${stage.id}-further`}>
                    <h3 id={`${stage.id}-further`}>Go further</h3>
                    <ul>
                      {stage.features.map((f) => (
                        <li key={f.href}>
                          <a href={f.href}>{f.label}</a>: {f.task}
                        </li>
                      ))}
                    </ul>
                  </section>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <p>
        All the exercises are also listed on one page: <a href="/exercises/">code exercises</a>.
      </p>
    </main>
  );
}
