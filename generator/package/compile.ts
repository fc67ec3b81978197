import { createHash } from 'node:crypto';
import path from 'node:path';
import type ts from 'typescript';
import { GeneratorError } from '../errors.js';
import type { GeneratedFile } from '../emit/output.js';

/** An SDK package: the folder it is written to and the generated source it is built from. */
export interface SdkPackage {
  /** Folder inside generated/, e.g. `client/rest`. */
  readonly dir: string;
  /** The entry module inside generated/, e.g. `client/rest.ts`. */
  readonly entry: string;
}

/** The output a previous run wrote at a path inside generated/, if any. */
export type PreviousOutput = (file: string) => string | undefined;

interface Compiled {
  readonly js: string;
  readonly dts: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The first line of every compiled file: what it was compiled from, and hashes of that source
 * and of the rest of the file. A later run whose source has the same hash reuses the file as
 * it is on disk, unless its text no longer has the recorded hash (an edit by hand), so the
 * output is always what compiling would give.
 */
function stamp(file: string, source: string, body: string): string {
  return `// Compiled from generated/${file} by npm run generate; do not edit. source ${sha256(source)} output ${sha256(body)}\n${body}`;
}

function reusable(previous: string | undefined, source: string): boolean {
  if (previous === undefined) return false;
  const newline = previous.indexOf('\n');
  const match = /source ([0-9a-f]{64}) output ([0-9a-f]{64})$/.exec(previous.slice(0, newline));
  return match !== null && match[1] === sha256(source) && match[2] === sha256(previous.slice(newline + 1));
}

/**
 * Package phase: compile each SDK's generated TypeScript (the entry and every module it imports
 * inside generated/) into ESM JavaScript with declarations, in the package's `dist/`, keeping
 * the layout of generated/ (`dist/client/rest.js` imports `dist/types/index.js`). It reads the
 * files the emit phase produced, and the outputs of the previous run only to skip compiling a
 * module whose source did not change (see `stamp`).
 *
 * Each module is compiled on its own, with no type checking here (the project's `tsc` checks the
 * sources, and a test type-checks the installed packages under the strictest settings), so
 * declarations come from `isolatedDeclarations`: every export of the SDK sources carries its type.
 */
export async function compilePackages(emitted: readonly GeneratedFile[], packages: readonly SdkPackage[], previous: PreviousOutput): Promise<GeneratedFile[]> {
  const sources = new Map(emitted.filter((f) => f.path.endsWith('.ts')).map((f) => [f.path, f.content]));
  let compiler: typeof ts | undefined;
  const compiled = new Map<string, Compiled>();

  const compile = async (file: string, base: string): Promise<Compiled> => {
    const source = sources.get(file)!;
    const [oldJs, oldDts] = [previous(`${base}.js`), previous(`${base}.d.ts`)];
    if (reusable(oldJs, source) && reusable(oldDts, source)) return { js: oldJs!, dts: oldDts! };
    let result = compiled.get(file);
    if (!result) {
      compiler ??= (await import('typescript')).default;
      result = transpile(compiler, file, source);
      compiled.set(file, result);
    }
    return result;
  };

  const files: GeneratedFile[] = [];
  for (const p of packages) {
    for (const file of closure(sources, p.entry)) {
      const base = `${p.dir}/dist/${file.replace(/\.ts$/, '')}`;
      const { js, dts } = await compile(file, base);
      files.push({ path: `${base}.js`, content: js }, { path: `${base}.d.ts`, content: dts });
    }
  }
  return files;
}

function transpile(compiler: typeof ts, file: string, source: string): Compiled {
  const js: ts.CompilerOptions = { target: compiler.ScriptTarget.ES2022, module: compiler.ModuleKind.ESNext, verbatimModuleSyntax: true, newLine: compiler.NewLineKind.LineFeed };
  const output = compiler.transpileModule(source, { compilerOptions: js, fileName: file, reportDiagnostics: true });
  const declarations = compiler.transpileDeclaration(source, { compilerOptions: { ...js, declaration: true, isolatedDeclarations: true }, fileName: file, reportDiagnostics: true });
  const problem = [...(output.diagnostics ?? []), ...(declarations.diagnostics ?? [])][0];
  if (problem) {
    const line = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start).line + 1 : 0;
    throw new GeneratorError(`generated/${file}:${line}`, '', `an SDK module does not compile on its own: ${compiler.flattenDiagnosticMessageText(problem.messageText, ' ')}`);
  }
  return { js: stamp(file, source, output.outputText), dts: stamp(file, source, declarations.outputText) };
}

/** Relative module specifiers of generated code (which always writes them in single quotes). */
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** The entry and every generated module it imports, directly or not, sorted. */
function closure(sources: ReadonlyMap<string, string>, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    if (!sources.has(file)) throw new GeneratorError(`generated/${entry}`, '', `imports generated/${file}, which no emitter produces`);
    seen.add(file);
    for (const [, specifier] of sources.get(file)!.matchAll(IMPORT)) visit(path.posix.join(path.posix.dirname(file), specifier!.replace(/\.js$/, '.ts')));
  };
  visit(entry);
  return [...seen].sort();
}
