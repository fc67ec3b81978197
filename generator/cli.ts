/** `npm run generate [-- --check | --watch | --help]`: schemas/ (and wsdl/) → generated/. */
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
  const targets = [path.join(root, SCHEMA_DIR), path.join(root, 'wsdl'), path.join(generatorDir, 'templates'), path.join(generatorDir, 'runtime')];
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

const USAGE = `usage: npm run generate [-- --check | --watch] [--root DIR]

Turns schemas/*.json (JSON Schema 2020-12) and wsdl/catalog.wsdl into generated/: types,
validators, REST routes, the SOAP codecs and dispatcher, openapi.json (and openapi-lookup.json,
what a lookup serves) and the two client SDK packages (generated/client/rest,
generated/client/soap). Never edit generated/.

  --check     compare instead of writing; exit 1 and name the stale files
  --watch     regenerate whenever a schema, the WSDL or a template changes
  --root DIR  the project root (default: the current directory)
  --help      this text

Errors name the file and the JSON pointer, e.g. schemas/port.json#/properties/capacity/type.`;

function options(): { check: boolean; watch: boolean; root?: string | undefined; help: boolean } {
  try {
    return parseArgs({
      options: { check: { type: 'boolean', default: false }, watch: { type: 'boolean', default: false }, root: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    }).values;
  } catch (error) {
    console.error(`error: ${(error as Error).message.split('\n')[0]}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const values = options();
  if (values.help) {
    console.log(USAGE);
    return;
  }
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
