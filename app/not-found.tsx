import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved when the course was reorganised.</p>
      <p>
        <Link href="/">Go to the course map</Link> or <Link href="/search/">search the chapters</Link>.
      </p>
    </main>
  );
}
