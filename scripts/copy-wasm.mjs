// Copy tfjs's WebAssembly binaries into public/ before a build or dev server: the labs' workers load them
// from /tfjs-wasm/ (files added after `next build` would not be part of the export).
import fs from 'node:fs';
import path from 'node:path';

const from = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';
const to = 'public/tfjs-wasm';
fs.mkdirSync(to, { recursive: true });
for (const file of fs.readdirSync(from).filter((f) => f.endsWith('.wasm'))) fs.copyFileSync(path.join(from, file), path.join(to, file));
