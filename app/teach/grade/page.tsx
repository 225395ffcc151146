import type { Metadata } from 'next';
import { Grader } from '@/app/_components/teach/Grader';

export const metadata: Metadata = { title: 'Grade submissions', description: 'Validate and re-evaluate students’ submissions, and export the grades as CSV.' };

export default function GradePage() {
  // data-boot-eager: an instructor's tool, live at once (grading starts from files chosen on it; app/_components/boot/deferred-boot.ts).
  return (
    <main className="page teach-page" data-boot-eager="">
      <h1>Grade submissions</h1>
      <p className="lede">
        Load the assignment file you made on the <a href="/teach/">assignment page</a>, then the students’
        submission files. Each file is checked (its format, the assignment it answers, its locked settings, its
        hashes) and its weights are evaluated twice: on the lab’s own test set, which must reproduce the history
        the student hands in, and on your held-out problems, which give the score.
      </p>
      <Grader />
    </main>
  );
}
