import { describe, expect, it } from 'vitest';
import { csvCell, gradesCsv } from '@/lib/teach/csv';
import type { GradeRow } from '@/lib/teach/grade';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    ['=1+1', "'=1+1"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    [' =x', "' =x"],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
  ])('%j → %s', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('writes numbers itself, rounded to 4 decimals, and nothing for none', () => {
    expect(csvCell(0.123456)).toBe('0.1235');
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(NaN)).toBe('');
    expect(csvCell(null)).toBe('');
  });
});

describe('gradesCsv', () => {
  it('writes the header and one line per row', () => {
    const base: GradeRow = { file: 'a.json', student: 'Ada', status: 'ok', detail: '', claimed: 0.5, measured: 0.4375, goalMet: true, flags: [], weightsSha256: null, seed: 17, submitted: '2031-04-20T12:00:00.000Z', received: null };
    const rows: GradeRow[] = [
      base,
      { ...base, file: 'b.json', student: '=evil()', status: 'tampered', detail: 'locked setting beta changed (0 → 0.1)', goalMet: false, flags: ['claimed far above measured (0.9 vs 0.4)', 'late by 5 min'] },
      { ...base, file: 'c.json', student: '', status: 'invalid', detail: 'not valid JSON', claimed: null, measured: null, goalMet: null, seed: null, submitted: null, received: '2031-04-21T08:00:00.000Z' },
    ];
    expect(gradesCsv(rows)).toBe(
      [
        'file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received',
        'a.json,Ada,ok,0.5,0.4375,yes,,17,2031-04-20T12:00:00.000Z,',
        "b.json,'=evil(),tampered: locked setting beta changed (0 → 0.1),0.5,0.4375,no,claimed far above measured (0.9 vs 0.4); late by 5 min,17,2031-04-20T12:00:00.000Z,",
        'c.json,,invalid: not valid JSON,,,,,,,2031-04-21T08:00:00.000Z',
        '',
      ].join('\n'),
    );
  });
});
