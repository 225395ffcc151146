// Serve the static export in out/ the way any plain static host would: files only, 404.html for misses.
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
const assets = sirv(root, { extensions: ['html'], dotfiles: false, etag: true });
const notFoundPage = fs.readFileSync(path.join(root, '404.html'));

http
  .createServer((req, res) =>
    assets(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(notFoundPage);
    }),
  )
  .listen(port, host, () => console.log(`Agentic RL Lab at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/`));
