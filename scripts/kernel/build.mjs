// npm run build:kernel — recompiles the fused decoding kernel into lib/models/decode-kernel/wasm.ts.
import fs from 'node:fs';
import path from 'node:path';
import { compileKernel, OUTPUT, ROOT } from './compile.mjs';

const text = await compileKernel();
fs.writeFileSync(path.join(ROOT, OUTPUT), text);
console.log(`wrote ${OUTPUT}`);
