export default function NotFound() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved when the course was reorganised.</p>
      <p>
        <a href="/">Go to the course map</a> or <a href="/search/">search the chapters</a>.
      </p>
    </main>
  );
}
