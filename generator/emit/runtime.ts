import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsHeader } from './output.js';

const runtimeDir = fileURLToPath(new URL('../runtime/', import.meta.url));

/** How a runtime module names a generated one (from generator/runtime/), and how it is emitted (from a folder of generated/). */
const FROM_RUNTIME = /(from '|import\(')\.\.\/\.\.\/generated\//g;

/**
 * `generator/runtime/<name>.ts`, emitted as it is under the generated header: modules of
 * generated code that the schemas change nothing in, kept as plain TypeScript so that the type
 * checker and the linter read them like any other source. An import of a generated module is
 * written from generator/runtime/ (`../../generated/validators/index.js`) and emitted from its
 * folder of generated/, `folder` (`../validators/index.js`; `./x.js` for a module of that folder).
 */
export function runtimeModule(name: string, folder: string): string {
  const source = readFileSync(`${runtimeDir}${name}.ts`, 'utf8');
  const sameFolder = new RegExp(`(from '|import\\(')\\.\\./\\.\\./generated/${folder}/`, 'g');
  return `${tsHeader([`generator/runtime/${name}.ts`])}\n${source.replace(sameFolder, '$1./').replace(FROM_RUNTIME, '$1../')}`;
}
