/**
 * Build /ui's static assets (`npm run build` runs it after tsc): ui/main.ts and what it imports
 * (Cytoscape.js, fCoSE and the generated REST client) bundled by esbuild into one minified
 * script, with the page and its style sheet beside it, in dist/ui/. The server serves that folder
 * (server/rest/ui.ts). Deterministic: the same sources give the same bytes.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../server/paths.js';

const source = path.join(projectRoot, 'ui');
const target = path.join(projectRoot, 'dist/ui');

await mkdir(target, { recursive: true });
const result = await build({
  entryPoints: [path.join(source, 'main.ts')],
  outfile: path.join(target, 'app.js'),
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
console.log(`ui: dist/ui/app.js ${(bytes / 1024).toFixed(0)} KiB`);
