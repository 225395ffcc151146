import { renderInlineMath, renderMathml } from '@/lib/content/mathml';

/** Math rendered at build time as MathML, like the chapters' (no KaTeX JavaScript or CSS reaches the browser). */
export function TexMath({ source }: { source: string }) {
  return <span dangerouslySetInnerHTML={{ __html: renderMathml(source) }} />;
}

/** Text with $…$ spans of inline math. */
export function TexText({ source }: { source: string }) {
  return <span dangerouslySetInnerHTML={{ __html: renderInlineMath(source) }} />;
}
