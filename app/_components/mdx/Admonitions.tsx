/** Prose containers chapters use: notes, pitfalls, optional deep dives, and the closing takeaways. */
export function Callout({ title, children }: { title?: string; children: React.ReactNode }) {
  return (
    <aside className="callout callout-note" aria-label={title ?? 'Note'}>
      <p className="callout-title">{title ?? 'Note'}</p>
      {children}
    </aside>
  );
}

export function Pitfall({ title, children }: { title?: string; children: React.ReactNode }) {
  return (
    <aside className="callout callout-pitfall" aria-label={title ?? 'Pitfall'}>
      <p className="callout-title">⚠ {title ?? 'Pitfall'}</p>
      {children}
    </aside>
  );
}

/** Native <details>: collapsible with no JavaScript, and its content is still found by search-in-page. */
export function DeepDive({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <details className="deep-dive">
      <summary>
        <span className="deep-dive-label">Deep dive</span> {title}
      </summary>
      <div className="deep-dive-body">{children}</div>
    </details>
  );
}

export function KeyTakeaways({ children }: { children: React.ReactNode }) {
  return (
    <section className="key-takeaways" aria-labelledby="key-takeaways-title">
      <h2 id="key-takeaways-title">Key takeaways</h2>
      {children}
    </section>
  );
}

export function References({ children }: { children: React.ReactNode }) {
  return (
    <section className="references" aria-labelledby="references-title">
      <h2 id="references-title">References</h2>
      {children}
    </section>
  );
}

export function Figure({ src, alt, caption }: { src: string; alt: string; caption?: string }) {
  return (
    <figure className="figure">
      {/* Static export serves figures as files; next/image optimisation is off. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={src} alt={alt} loading="lazy" />
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}
