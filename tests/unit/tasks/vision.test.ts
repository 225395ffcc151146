/**
 * The picture task: answers verified on a hand-built scene; fixed prompt length; the held-out pictures never appear
 * in training; the picture is the scene's pixels (colour where the shape's mask is, noise elsewhere), the same every
 * time; and bad settings get one clear message.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { askAbout, CELL_PIXELS, createVisionTask, MIXED_KINDS, PIXEL_NOISE, sceneKey, VISION_QUESTION_KINDS, type VisionScene } from '@/lib/tasks/vision';

const r = { shape: 'square', colour: 'red' } as const;
const b = { shape: 'circle', colour: 'blue' } as const;
const y = { shape: 'triangle', colour: 'yellow' } as const;
/** 2 × 2: red square, empty / blue circle, red square. */
const SCENE: VisionScene = { size: 2, cells: [r, null, b, { ...r }] };

describe('vision task', () => {
  it('answers each kind of question from the scene', () => {
    expect(askAbout(SCENE, 'count_colour', { colour: 'red' })).toMatchObject({ prompt: '#r?', answer: '2', question: 'how many red?' });
    expect(askAbout(SCENE, 'count_colour', { colour: 'yellow' }).answer).toBe('0');
    expect(askAbout(SCENE, 'count_shape', { shape: 'circle' })).toMatchObject({ prompt: '#c?', answer: '1', question: 'how many circles?' });
    expect(askAbout(SCENE, 'count_all', {})).toMatchObject({ prompt: '#*?', answer: '3' });
    expect(askAbout(SCENE, 'colour_at', { cell: 2 })).toMatchObject({ prompt: '@21', answer: 'b', question: 'what colour is at row 2, column 1?' });
    expect(() => askAbout(SCENE, 'colour_at', { cell: 1 })).toThrow(/cell 1 is empty/);
  });

  it('draws problems whose answers match their scenes, with one prompt length', () => {
    const task = createVisionTask({ size: 4, kinds: VISION_QUESTION_KINDS, occupancy: 0.5 });
    const problems = task.sample('train', 200, createRng(1));
    for (const p of problems) {
      expect(task.encodePrompt(p)).toHaveLength(task.promptLength);
      expect(task.encodeCompletion(p).length).toBeLessThanOrEqual(task.maxCompletionLength);
      const again = askAbout(p.scene, p.kind, { colour: { r: 'red', g: 'green', b: 'blue', y: 'yellow' }[p.prompt[1]] as never, shape: { s: 'square', c: 'circle', t: 'triangle' }[p.prompt[1]] as never, cell: p.kind === 'colour_at' ? (Number(p.prompt[1]) - 1) * 4 + Number(p.prompt[2]) - 1 : undefined });
      expect(again.answer).toBe(p.answer);
    }
    expect(new Set(problems.map((p) => p.kind))).toEqual(new Set(VISION_QUESTION_KINDS));
  });

  it('keeps held-out pictures out of training, as sampleSplit splits the arithmetic tasks', () => {
    const task = createVisionTask({ size: 4, kinds: MIXED_KINDS, occupancy: 0.5 });
    const test = task.testSet(300);
    expect(test.every((p) => task.isHeldOut(p))).toBe(true);
    expect(task.testSet(300)).toBe(test); // fixed
    const train = task.sample('train', 2000, createRng(2));
    const heldOut = new Set(test.map((p) => sceneKey(p.scene)));
    expect(train.some((p) => heldOut.has(sceneKey(p.scene)))).toBe(false);
    expect(train.some((p) => task.isHeldOut(p))).toBe(false);
  });

  it('rasterises a scene: the colour under the shape’s mask, a little noise, the same picture every time', () => {
    const task = createVisionTask({ size: 2, kinds: MIXED_KINDS, occupancy: 0.5 });
    const scene: VisionScene = { size: 2, cells: [r, null, b, y] };
    const px = task.patches(scene);
    expect(px).toHaveLength(4 * task.patchDim);
    expect(task.patchDim).toBe(CELL_PIXELS * CELL_PIXELS * 3);
    expect(Array.from(task.patches(scene))).toEqual(Array.from(px));
    const pixel = (cell: number, p: number) => Array.from(px.subarray(cell * task.patchDim + p * 3, cell * task.patchDim + p * 3 + 3));
    const near = (got: number[], want: number[]) => got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(5 * PIXEL_NOISE));
    near(pixel(0, 0), [1, 0, 0]); // the square fills its corner
    near(pixel(1, 5), [0, 0, 0]); // an empty cell is background
    near(pixel(2, 0), [0, 0, 0]); // the circle leaves its corners empty
    near(pixel(2, 5), [0, 0, 1]);
    near(pixel(3, 3), [0, 0, 0]); // the triangle: top right corner empty, bottom row full
    near(pixel(3, 15), [1, 1, 0]);
    expect(() => task.patches({ size: 3, cells: Array(9).fill(null) })).toThrow(/this task's scenes are 2 × 2/);
  });

  it('refuses bad settings with one clear message', () => {
    expect(() => createVisionTask({ size: 12, kinds: MIXED_KINDS, occupancy: 0.5 })).toThrow(/2 to 9 cells per side/);
    expect(() => createVisionTask({ size: 4, kinds: [], occupancy: 0.5 })).toThrow(/question kinds/);
    expect(() => createVisionTask({ size: 4, kinds: MIXED_KINDS, occupancy: 0 })).toThrow(/occupancy/);
  });
});
