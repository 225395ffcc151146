import type { Metadata } from 'next';
import { AssignmentBuilder } from '@/app/_components/teach/AssignmentBuilder';

export const metadata: Metadata = { title: 'Make an assignment', description: 'Assign a lab with locked settings and a goal, and share it as a link.' };

export default function TeachPage() {
  // data-boot-eager: an instructor's tool, live at once (the form's fields follow the lab chosen, which a replay after hydration cannot follow; app/_components/boot/deferred-boot.ts).
  return (
    <main className="page teach-page" data-boot-eager="">
      <h1>Make an assignment</h1>
      <p className="lede">
        Choose a lab and a preset, lock the settings students must keep, and set a goal that is measured on your own
        held-out problems. Where the preset has one, you can also ask for the prediction the lab poses before a run:
        graded as made or not made before the run, never right or wrong. You get a link for your students and an
        assignment file to keep. Students train in their
        browser and hand in a submission file; the <a href="/teach/grade/">grader</a> re-evaluates every
        checkpoint, so editing a number in the file gains nothing.
      </p>
      <p>
        From the command line: <code>npm run assign</code>, <code>npm run train -- … --assignment</code> and <code>npm run grade</code> (see the README).
      </p>
      <AssignmentBuilder />
    </main>
  );
}
