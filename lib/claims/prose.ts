/**
 * Claims that rebuild a chapter's sentences and tables from the numbers they measure, and fail when the chapter does
 * not print them word for word: a number changed in the prose, or a run that now gives another one, fails the claim.
 * The chapter's text comes from the check's ClaimContext, never from disk here, so these run in a page as in Node.
 */
import type { ClaimContext } from './types';

/** Whether a chapter prints `snippet` word for word. */
export const prints = (context: ClaimContext, chapter: string, snippet: string) => context.chapter(chapter).includes(snippet);
/** '' when the chapter prints `snippet`, else "; <chapter> does not print: <snippet>" for the verdict's figure. */
export const printedFigure = (context: ClaimContext, chapter: string, snippet: string) => (prints(context, chapter, snippet) ? '' : `; ${chapter} does not print: ${snippet}`);
/** A share as chapter prose writes it: percent to one decimal, no trailing zero ("28", "99.5"). */
export const prosePct = (x: number) => String(Math.round(1000 * x) / 10);
/** "50%, 48.2% and 44.8%": a list as the prose writes it. */
export const proseList = (items: string[]) => items.join(', ').replace(/, ([^,]*)$/, ' and $1');
/** A difference of two shares in points, to one decimal ("15.6"). */
export const prosePoints = (a: number, b: number) => String(Math.round(1000 * (a - b)) / 10);
/** "34.2 to 48.4": the smallest and largest of differences of shares, in points as prosePoints writes them. */
export const proseRange = (differences: number[]) => `${prosePoints(Math.min(...differences), 0)} to ${prosePoints(Math.max(...differences), 0)}`;
