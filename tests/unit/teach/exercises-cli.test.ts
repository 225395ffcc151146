/** `npm run assign -- … --exercises` and `npm run grade` on exercise submissions, run as an instructor would. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exerciseNamed } from '@/content/exercises';
import { parseAssignmentFile, sharedPart } from '@/lib/teach/assignment';
import { buildExerciseSubmission } from '@/lib/teach/exercise-submission';
import { runScript, scratchDir } from './run-script';

const run = (script: string, ...args: string[]) => runScript(script, args);

const at = scratchDir('arl-exercises-');

describe('assign --exercises, then grade exercise submissions', () => {
  it('lists the exercises, prints the hand-in link, and grades each source again into the CSV', async () => {
    const assign = await run('assign', 'grpo', '--goal', 'eval/accuracy >= 0.4', '--eval-seed', '7', '--exercises', 'gae,dpo-loss', '--title', 'Week 4');
    expect(assign.code, assign.stderr).toBe(0);
    const lines = assign.stderr.trim().split('\n');
    expect(lines.shift()).toMatch(/^assign: each student trains on their own seed/);
    expect(lines[0]).toMatch(/^assign: the students' link .*: \/labs\/grpo\/#assignment=[A-Za-z0-9_-]+$/);
    expect(lines[1]).toMatch(/^assign: where students hand in the exercises \(gae, dpo-loss\): \/exercises\/#assignment=[A-Za-z0-9_-]+$/);
    const assignment = await parseAssignmentFile(assign.stdout);
    expect(assignment.exercises).toEqual(['gae', 'dpo-loss']);
    fs.writeFileSync(at('assignment.json'), assign.stdout);

    const good = await buildExerciseSubmission({ student: 'Ada', assignment: sharedPart(assignment), sources: { gae: exerciseNamed('gae')!.solution, 'dpo-loss': exerciseNamed('dpo-loss')!.solution } });
    const loop = await buildExerciseSubmission({ student: 'Bob', assignment: sharedPart(assignment), sources: { gae: 'function gae() { while (true) {} }' } });
    fs.writeFileSync(at('ada.json'), JSON.stringify(good));
    fs.writeFileSync(at('bob.json'), JSON.stringify(loop));
    const grade = await run('grade', '--assignment', at('assignment.json'), at('ada.json'), at('bob.json'));
    expect(grade.code, grade.stderr).toBe(0);
    const csv = grade.stdout.trim().split('\n');
    expect(csv[0]).toBe('file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received,exercises_passed,exercise:gae,exercise:dpo-loss');
    expect(csv[1]).toBe(`ada.json,Ada,ok,,,,,,${good.submitted},,2 of 2,passed,passed`);
    expect(csv[2]).toMatch(/^bob\.json,Bob,ok,,,,,,[\dT:.Z-]+,,0 of 2,failed: Case 1 of 20 failed: stopped after 1000 ms: the code did not return \(an infinite loop\?\),not handed in$/);
  }, 120_000);

  it('refuses an unknown exercise with one line and exit code 2', async () => {
    const result = await run('assign', 'grpo', '--goal', 'eval/accuracy >= 0.4', '--eval-seed', '7', '--exercises', 'gae,nope');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe('assign: --exercises: unknown exercise "nope" (known: lora-forward, discounted-returns, gae, clipped-surrogate, dpo-loss, grpo-advantages, k3-kl, loss-aggregation, gspo-loss)');
  }, 60_000);
});
