'use client';

import { useProgress } from '@/ui/useProgress';

interface Props {
  chapters: string[];
  quizzes: string[];
  exercises: string[];
  /** The labs the stage asks to train (a lab counts once it has a finished run). */
  labs: string[];
}

/** A stage's progress on this device: chapters completed, quizzes answered right, labs trained, exercises passed, and the predictions made in its labs. */
export function StageProgress({ chapters, quizzes, exercises, labs }: Props) {
  const { value: state, ready } = useProgress((s) => s);
  if (!ready) return <p className="stage-progress placeholder">Your progress on this device appears here.</p>;
  const done = chapters.filter((slug) => state.chapters[slug]?.completedAt).length;
  const right = quizzes.filter((id) => state.quizzes[id]?.correct).length;
  const passed = exercises.filter((id) => state.exercises?.[id]).length;
  const trained = labs.filter((slug) => state.labs?.[slug]).length;
  const parts = [`${done} of ${chapters.length} chapters completed`];
  if (quizzes.length > 0) parts.push(`${right} of ${quizzes.length} quizzes answered right`);
  if (labs.length > 0) parts.push(`${trained} of ${labs.length} labs trained`);
  if (exercises.length > 0) parts.push(`${passed} of ${exercises.length} exercises passed`);
  // Predictions are optional (a lab asks before a run; lib/claims), so they count beside the stage, not towards it.
  const predictions = Object.values(state.predictions ?? {}).filter((p) => labs.includes(p.lab));
  const made = predictions.reduce((n, p) => n + p.made, 0);
  if (made > 0) parts.push(`${made} ${made === 1 ? 'prediction' : 'predictions'} made before a run, ${predictions.reduce((n, p) => n + p.matched, 0)} matching what the run showed`);
  const total = chapters.length + quizzes.length + labs.length + exercises.length;
  const share = total === 0 ? 0 : (done + right + trained + passed) / total;
  return (
    <div className="stage-progress">
      <progress max={1} value={share} aria-label="Progress in this stage">
        {Math.round(share * 100)}%
      </progress>
      <p>{parts.join(' · ')}.</p>
    </div>
  );
}

/** How many of a chapter's quizzes the reader has answered right. */
export function QuizTally({ ids }: { ids: string[] }) {
  const { value: state, ready } = useProgress((s) => s.quizzes);
  if (!ready || ids.length === 0) return null;
  const right = ids.filter((id) => state[id]?.correct).length;
  return (
    <span className="quiz-tally">
      {' '}
      · quizzes {right}/{ids.length}
    </span>
  );
}

/** One thing the path asks for, in the order it asks. */
export interface PathItem {
  kind: 'chapter' | 'quiz' | 'lab' | 'exercise';
  /** The chapter's slug, the quiz's id, the lab's slug or the exercise's id. */
  id: string;
  label: string;
  href: string;
}

/**
 * The first thing on the path not done yet on this device: a chapter not completed, a quiz not answered right, a lab
 * never trained to the end, an exercise not passed. Nothing until stored progress is read.
 */
export function NextStep({ items }: { items: PathItem[] }) {
  const { value: state, ready } = useProgress((s) => s);
  if (!ready) return null;
  const done = (item: PathItem) =>
    item.kind === 'chapter' ? Boolean(state.chapters[item.id]?.completedAt) : item.kind === 'quiz' ? Boolean(state.quizzes[item.id]?.correct) : item.kind === 'lab' ? Boolean(state.labs?.[item.id]) : Boolean(state.exercises?.[item.id]);
  const next = items.find((item) => !done(item));
  return (
    <p className="path-next" role="status">
      {next ? (
        <>
          <strong>Next:</strong> <a href={next.href}>{next.label}</a>
        </>
      ) : (
        'You have done everything on the path. Well done.'
      )}
    </p>
  );
}
