/**
 * `npm run generate [-- --check | --watch]`: schemas/ (and wsdl/) → generated/.
 *
 *   --check   compare instead of writing; exit 1 and name the stale files when generated/ is out of date
 *   --watch   regenerate whenever a schema, WSDL or template changes
 *   --root D  project root (default: the current directory)
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GeneratorError } from './errors.js';
import { generate } from './pipeline.js';
import { apply, compare, isClean, type Difference } from './sync.js';

const SCHEMA_DIR = 'schemas';
const WSDL_FILE = 'wsdl/catalog.wsdl';
const OUT_DIR = 'generated';

async function runOnce(root: string, check: boolean): Promise<boolean> {
  const started = performance.now();
  const files = await generate({ root, schemaDir: SCHEMA_DIR, wsdlFile: WSDL_FILE });
  const outDir = path.join(root, OUT_DIR);
  const difference = await compare(outDir, files);
  const elapsed = `${Math.round(performance.now() - started)} ms`;
  if (check) {
    if (isClean(difference)) {
      console.log(`generated/ is up to date (${files.length} files, ${elapsed})`);
      return true;
    }
    console.error(`generated/ is stale; run \`npm run generate\`:\n${describe(difference)}`);
    return false;
  }
  await apply(outDir, files, difference);
  const count = difference.changed.length + difference.missing.length + difference.orphaned.length;
  console.log(count === 0 ? `generated/ already up to date (${files.length} files, ${elapsed})` : `generated/: ${count} file(s) updated (${elapsed})\n${describe(difference)}`);
  return true;
}

function describe(d: Difference): string {
  return [
    ...d.changed.map((f) => `  changed   ${OUT_DIR}/${f}`),
    ...d.missing.map((f) => `  missing   ${OUT_DIR}/${f}`),
    ...d.orphaned.map((f) => `  orphaned  ${OUT_DIR}/${f} (no source produces it)`),
  ].join('\n');
}

function report(error: unknown): void {
  if (error instanceof GeneratorError) console.error(`error: ${error.message}`);
  else console.error(error);
}

async function watch(root: string): Promise<void> {
  const { watch: watchFiles } = await import('chokidar');
  const generatorDir = path.dirname(new URL(import.meta.url).pathname);
  const targets = [path.join(root, SCHEMA_DIR), path.join(root, 'wsdl'), path.join(generatorDir, 'templates')];
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const schedule = (): void => {
    clearTimeout(timer);
    // Editors save in bursts; wait for the burst to end.
    timer = setTimeout(() => {
      running = running.then(() => runOnce(root, false).then(() => undefined, report));
    }, 100);
  };
  watchFiles(targets, { ignoreInitial: true }).on('all', schedule);
  console.log(`watching ${targets.map((t) => path.relative(root, t) || '.').join(', ')}`);
  await runOnce(root, false).catch(report);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { check: { type: 'boolean', default: false }, watch: { type: 'boolean', default: false }, root: { type: 'string' } },
  });
  const root = path.resolve(values.root ?? process.cwd());
  if (values.watch) return watch(root);
  try {
    if (!(await runOnce(root, values.check))) process.exitCode = 1;
  } catch (error) {
    report(error);
    process.exitCode = 1;
  }
}

await main();
