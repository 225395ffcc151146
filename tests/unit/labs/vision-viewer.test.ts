/**
 * The vision lab's viewer on made-up inspector data (the contract's types, lib/train/vision-inspector.ts): the words a
 * screen reader gets for a picture and for an answer's attention, and the markup the viewer renders — pictures named
 * by their question and answer, answers marked right and wrong in words, one overlay patch per attention weight, and
 * no picture (and no attention) under text_only.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { VisionGroupSample, VisionScene } from '@/lib/train/vision-inspector';
import { askedCell, describeAttention, describeScene, patchCells, rankPatches } from '@/labs/vision/scene-text';
import { VisionViewer, type VisionStep } from '@/labs/vision/VisionViewer';

const R = { shape: 'square', colour: 'red' } as const;
const B = { shape: 'circle', colour: 'blue' } as const;
const Y = { shape: 'triangle', colour: 'yellow' } as const;
// prettier-ignore
const SCENE: VisionScene = { size: 3, cells: [
  null, R, null,
  null, null, null,
  B, null, Y,
] };
// Answer 1's attention over the 3 × 3 patches: 0.7 to the picture, most to the red square, then the yellow triangle.
const ATTENTION = [0, 0.4, 0, 0, 0.05, 0, 0.1, 0, 0.15];

const group = (over: Partial<VisionGroupSample> = {}): VisionGroupSample => ({
  scene: SCENE,
  question: 'how many red?',
  truth: '1',
  answers: [
    { completion: '1<eos>', reward: 1, correct: true },
    { completion: '2', reward: 0, correct: false },
    { completion: '', reward: 0, correct: false },
  ],
  attention: ATTENTION,
  patchGrid: 3,
  ...over,
});
const render = (samples: VisionStep[]) => renderToStaticMarkup(createElement(VisionViewer, { samples }));

describe('the vision lab’s words for a picture and for attention', () => {
  it('describes a picture row by row, counting from 1, and says the rest is empty', () => {
    expect(describeScene(SCENE)).toBe(
      'A 3 by 3 grid with 3 shapes. Row 1: a red square in column 2. Row 3: a blue circle in column 1, a yellow triangle in column 3. Every other cell is empty.',
    );
    expect(describeScene({ size: 2, cells: [null, null, null, null] })).toBe('A 2 by 2 grid with 0 shapes. Every cell is empty.');
    expect(describeScene({ size: 1, cells: [B] })).toBe('A 1 by 1 grid with 1 shape. Row 1: a blue circle in column 1. No cell is empty.');
  });

  it('maps a patch to the cells it covers when patches are larger than cells', () => {
    expect(patchCells(3, 3, 2, 1)).toEqual([[2, 1]]);
    expect(patchCells(6, 3, 1, 2)).toEqual([
      [2, 4],
      [2, 5],
      [3, 4],
      [3, 5],
    ]);
  });

  it('ranks patches by weight, ties in reading order, and sums up where the answer looked', () => {
    expect(rankPatches([0.2, 0.5, 0.2, 0.1], 2).map((p) => [p.row, p.column])).toEqual([
      [0, 1],
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(describeAttention(SCENE, ATTENTION, 3)).toBe(
      '70% of it went to the picture, the rest to the question; most to row 1, column 2 (a red square, 40%), row 3, column 3 (a yellow triangle, 15%), row 3, column 1 (a blue circle, 10%).',
    );
    // A question that names a cell: what that cell got, and its rank among the patches.
    expect(askedCell('what colour is at row 3, column 1?')).toEqual([2, 0]);
    expect(askedCell('how many red?')).toBeNull();
    expect(describeAttention(SCENE, ATTENTION, 3, 1, 'what colour is at row 3, column 1?')).toBe(
      '70% of it went to the picture, the rest to the question; most to row 1, column 2 (a red square, 40%). The cell the question names, row 3, column 1, got 10% (3rd of 9 patches).',
    );
    expect(describeAttention(SCENE, ATTENTION, 3, 1, 'how many red?')).toBe(describeAttention(SCENE, ATTENTION, 3, 1));
    // Patches of four cells: no single cell to name.
    expect(describeAttention({ size: 4, cells: Array(16).fill(null) }, [0, 0.5, 0, 0], 2, 1)).toBe('50% of it went to the picture, the rest to the question; most to row 1, column 2 (50%).');
  });
});

describe('VisionViewer', () => {
  it('asks for a step before any', () => {
    expect(render([])).toContain('Train for a step');
  });

  it('draws each picture named by its question and answer and described cell by cell, with the answers marked right and wrong', () => {
    const html = render([{ step: 7, data: { phase: 'grpo', groups: [group(), group({ question: 'how many circles?', truth: '1', answers: [{ completion: '1', reward: 1, correct: true }] })] } }]);
    expect(html).toContain('Step 7, GRPO phase: <strong>2</strong> of 4 sampled answers right across 2 pictures');
    expect(html).toContain('<title id="');
    expect(html).toContain('Picture for “how many red?” (the answer is 1)</title>');
    expect(html).toContain(`${describeScene(SCENE)}</desc>`);
    // Two pictures in the gallery and one more, larger, in the attention view.
    expect(html.match(/role="img"/g)).toHaveLength(3);
    // The answers: the mark in words as well as colour; <eos> and empty completions shown readably.
    expect(html).toMatch(/class="vision-answer vision-right"[^>]*><span aria-hidden="true">✓<\/span> <code>1<\/code><span class="sr-only"> right, reward 1<\/span>/);
    expect(html).toMatch(/class="vision-answer vision-wrong"[^>]*><span aria-hidden="true">✗<\/span> <code>2<\/code>/);
    expect(html).toContain('<code>(nothing)</code>');
    expect(html).toContain('(1 of 3 right)');
  });

  it('spells out a colour given as its letter, in the picture’s name and its caption', () => {
    const html = render([{ step: 2, data: { phase: 'grpo', groups: [group({ question: 'what colour is at row 1, column 2?', truth: 'r' })] } }]);
    expect(html).toContain('Picture for “what colour is at row 1, column 2?” (the answer is r (red))</title>');
    expect(html).toContain('answer: r (red)');
  });

  it('draws answer 1’s attention as one overlay patch per weight, strongest where the weight is largest, and as numbers', () => {
    const html = render([{ step: 1, data: { phase: 'sft', groups: [group()] } }]);
    expect(html).toContain('SFT phase');
    const overlay = /<g class="vision-overlay vision-overlay-heat">(.*?)<\/g>/.exec(html)?.[1] ?? '';
    const opacities = [...overlay.matchAll(/opacity="([\d.e-]+)"/g)].map((m) => Number(m[1]));
    expect(opacities).toHaveLength(9);
    // Heat scales to the largest weight (0.4 → 0.75); zero weight → no tint.
    expect(opacities[1]).toBeCloseTo(0.75);
    expect(opacities[8]).toBeCloseTo((0.75 * 0.15) / 0.4);
    expect(opacities[0]).toBe(0);
    expect(html).toContain(describeAttention(SCENE, ATTENTION, 3));
    expect(html).toMatch(/<td title="row 1, column 2">40%<\/td>/);
    expect(html).not.toContain('vision-mark');
  });

  it('outlines the cell a question names in the attention view', () => {
    const html = render([{ step: 1, data: { phase: 'grpo', groups: [group({ question: 'what colour is at row 3, column 3?', truth: 'y' })] } }]);
    expect(html.match(/<rect class="vision-mark" x="41" y="41" width="18" height="18"><\/rect>/g)).toHaveLength(1);
    expect(html).toContain('The cell the question names, row 3, column 3, got 15% (2nd of 9 patches).');
  });

  it('under text_only shows no picture and says there is no attention to show', () => {
    const html = render([{ step: 3, data: { phase: 'grpo', groups: [group({ scene: null, attention: null })] } }]);
    expect(html).not.toContain('role="img"');
    expect(html).toContain('No picture: under text_only the policy sees only the question.');
    expect(html).toContain('there is no attention over one to show');
    expect(html).not.toContain('Where the model looks');
  });
});
