// Serve the static export in out/ the way any plain static host would: files only (compressed when the build
// left compressed copies), 404.html for misses.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

const root = path.resolve(process.argv[2] ?? 'out');
if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error(`No built site in ${root}. Run "npm run build" first.`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// gzip/brotli: the copies scripts/compress.mjs wrote after the build, sent to browsers that accept them.
const assets = sirv(root, { extensions: ['html'], dotfiles: false, etag: true, gzip: true, brotli: true });
const notFoundPage = fs.readFileSync(path.join(root, '404.html'));

const notFound = (res) => {
  res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(notFoundPage);
};
/** The 404 page's own file is not a page of the site: /404 answers 404 like any other miss. */
const isNotFoundPage = (url) => /^\/404(?:\.html|\/)?(?:[?#]|$)/.test(url ?? '');

const server = http.createServer((req, res) => (isNotFoundPage(req.url) ? notFound(res) : assets(req, res, () => notFound(res))));

// Node refuses request heads over 16 KB before any handler runs, with an empty 431: say what happened instead.
server.on('clientError', (error, socket) => {
  if (!socket.writable) return;
  const tooLong = error.code === 'HPE_HEADER_OVERFLOW';
  const body = tooLong
    ? 'This address is too long (over 16 KB). Lab links hold only the settings that differ from the defaults; shorten it and try again.\n'
    : 'Bad request.\n';
  const status = tooLong ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
});

server.listen(port, host, () => console.log(`Agentic RL Lab at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/`));
