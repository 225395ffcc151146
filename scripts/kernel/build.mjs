// npm run build:kernel — recompiles every WebAssembly kernel (scripts/kernel/compile.mjs) into its embedding module.
import fs from 'node:fs';
import path from 'node:path';
import { compileKernel, KERNELS, ROOT } from './compile.mjs';

for (const [name, kernel] of Object.entries(KERNELS)) {
  fs.writeFileSync(path.join(ROOT, kernel.output), await compileKernel(name));
  console.log(`wrote ${kernel.output}`);
}
