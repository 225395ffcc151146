'use client';

import { useProgress } from '../progress/useProgress';

interface Props {
  chapters: string[];
  quizzes: string[];
  exercises: string[];
}

/** A stage's progress on this device: chapters completed, quizzes answered right, exercises passed. */
export function StageProgress({ chapters, quizzes, exercises }: Props) {
  const { value: state, ready } = useProgress((s) => s);
  if (!ready) return <p className="stage-progress placeholder">Your progress on this device appears here.</p>;
  const done = chapters.filter((slug) => state.chapters[slug]?.completedAt).length;
  const right = quizzes.filter((id) => state.quizzes[id]?.correct).length;
  const passed = exercises.filter((id) => state.exercises?.[id]).length;
  const parts = [`${done} of ${chapters.length} chapters completed`];
  if (quizzes.length > 0) parts.push(`${right} of ${quizzes.length} quizzes answered right`);
  if (exercises.length > 0) parts.push(`${passed} of ${exercises.length} exercises passed`);
  const total = chapters.length + quizzes.length + exercises.length;
  const share = total === 0 ? 0 : (done + right + passed) / total;
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
