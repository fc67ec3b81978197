/**
 * Build /ui's static assets (`npm run build` runs it after tsc): ui/main.ts and what it imports
 * (Cytoscape.js, fCoSE and the generated REST client) bundled by esbuild into one minified
 * script, the layout worker (ui/layout-worker.ts) into another, with the page and its style
 * sheet beside them, in dist/ui/. The server serves that folder
 * (server/rest/ui.ts). Deterministic: the same sources give the same bytes.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../server/paths.js';

const source = path.join(projectRoot, 'ui');
const target = path.join(projectRoot, 'dist/ui');

await mkdir(target, { recursive: true });
// The page's script and the layout worker's (ui/layout-worker.ts), each bundled whole.
const result = await build({
  entryPoints: [
    { in: path.join(source, 'main.ts'), out: 'app' },
    { in: path.join(source, 'layout-worker.ts'), out: 'layout' },
  ],
  outdir: target,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
});
await Promise.all(['index.html', 'style.css'].map((file) => copyFile(path.join(source, file), path.join(target, file === 'style.css' ? 'app.css' : file))));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`ui: dist/ui/app.js and layout.js ${(bytes / 1024).toFixed(0)} KiB`);
// The last step of `npm run build`: the stamp `npm start` compares with the sources (tools/start.js).
await writeFile(path.join(projectRoot, 'dist/.build-complete'), '');
