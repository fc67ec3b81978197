import path from 'node:path';
import ts from 'typescript';
import { GeneratorError } from '../errors.js';
import type { GeneratedFile } from '../emit/output.js';

/** An SDK package: the folder it is written to and the generated source it is built from. */
export interface SdkPackage {
  /** Folder inside generated/, e.g. `client/rest`. */
  readonly dir: string;
  /** The entry module inside generated/, e.g. `client/rest.ts`. */
  readonly entry: string;
}

/**
 * Each module is compiled on its own (no type checking here: the project's `tsc` checks the
 * sources, and a test type-checks the installed packages under the strictest settings), so
 * declarations come from `isolatedDeclarations`: every export the SDK sources declare carries its
 * type.
 */
const JS_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  newLine: ts.NewLineKind.LineFeed,
};
const DECLARATION_OPTIONS: ts.CompilerOptions = { ...JS_OPTIONS, declaration: true, isolatedDeclarations: true };

/**
 * Package phase: compile each SDK's generated TypeScript (the entry and every module it imports
 * inside generated/) into ESM JavaScript with declarations, in the package's `dist/`, keeping
 * the layout of generated/ (`dist/client/rest.js` imports `dist/types/index.js`). Reads only the
 * files the emit phase produced.
 */
export function compilePackages(emitted: readonly GeneratedFile[], packages: readonly SdkPackage[]): GeneratedFile[] {
  const sources = new Map(emitted.filter((f) => f.path.endsWith('.ts')).map((f) => [f.path, f.content]));
  const compiled = new Map<string, { js: string; dts: string }>();
  const compile = (file: string): { js: string; dts: string } => {
    let result = compiled.get(file);
    if (!result) {
      const source = sources.get(file)!;
      const js = ts.transpileModule(source, { compilerOptions: JS_OPTIONS, fileName: file, reportDiagnostics: true });
      const dts = ts.transpileDeclaration(source, { compilerOptions: DECLARATION_OPTIONS, fileName: file, reportDiagnostics: true });
      const problem = [...(js.diagnostics ?? []), ...(dts.diagnostics ?? [])][0];
      if (problem) {
        const line = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start).line + 1 : 0;
        throw new GeneratorError(`generated/${file}:${line}`, '', `an SDK module does not compile on its own: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')}`);
      }
      result = { js: js.outputText, dts: dts.outputText };
      compiled.set(file, result);
    }
    return result;
  };

  return packages.flatMap((p) =>
    closure(sources, p.entry).flatMap((file) => {
      const { js, dts } = compile(file);
      const base = `${p.dir}/dist/${file.replace(/\.ts$/, '')}`;
      return [
        { path: `${base}.js`, content: js },
        { path: `${base}.d.ts`, content: dts },
      ];
    }),
  );
}

/** The entry and every generated module it imports, directly or not, sorted. */
function closure(sources: ReadonlyMap<string, string>, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    if (!sources.has(file)) throw new GeneratorError(`generated/${entry}`, '', `imports generated/${file}, which no emitter produces`);
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(sources.get(file)!, true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(path.posix.join(path.posix.dirname(file), fileName.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return [...seen].sort();
}
