import katex from 'katex';

/** Math rendered at build time, like the chapters' (no KaTeX JavaScript reaches the browser). */
export function TexMath({ source }: { source: string }) {
  return <span dangerouslySetInnerHTML={{ __html: katex.renderToString(source, { throwOnError: true, output: 'htmlAndMathml' }) }} />;
}

/** Text with $…$ spans of inline math. */
export function TexText({ source }: { source: string }) {
  const parts = source.split(/\$([^$]+)\$/);
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <TexMath key={i} source={part} /> : part))}
    </>
  );
}
