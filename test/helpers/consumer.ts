import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from './project.js';
import { projectRoot } from './server.js';

/** The folders of the SDK packages `npm run generate` writes. */
export const SDK_DIRS = ['generated/client/rest', 'generated/client/soap'] as const;

/**
 * The strictest common compiler settings. A consumer project type-checks its programs with these
 * and either module resolution, with `skipLibCheck` off so the packages' declarations are checked.
 */
const STRICTEST = {
  target: 'ES2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  skipLibCheck: false,
  typeRoots: [path.join(projectRoot, 'node_modules/@types')],
  types: ['node'],
};

export const RESOLUTIONS = {
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out' },
  bundler: { module: 'Preserve', moduleResolution: 'Bundler', noEmit: true },
} as const;

export type Resolution = keyof typeof RESOLUTIONS;

/** A project of a user of the SDKs: its own package.json, the packed SDKs installed from tarballs. */
export interface Consumer {
  readonly dir: string;
  /** Type-check (and with nodenext, compile to out/) the given programs; rejects with tsc's report. */
  typecheck(resolution: Resolution, files: readonly string[]): Promise<void>;
  /** Run a compiled program (out/<name>.js) with the environment given; resolves with stdout. */
  run(program: string, env: Readonly<Record<string, string>>): Promise<string>;
}

/** `npm pack` each SDK and install the tarballs, with any further packages, into a new project. */
export async function createConsumer(extra: Readonly<Record<string, string>> = {}): Promise<Consumer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'topocat-consumer-'));
  const dependencies: Record<string, string> = { ...extra };
  for (const sdk of SDK_DIRS) {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: path.join(projectRoot, sdk) });
    const [packed] = JSON.parse(stdout) as { name: string; filename: string }[];
    dependencies[packed!.name] = `file:./${packed!.filename}`;
  }
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module', dependencies }, null, 2));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
  return {
    dir,
    async typecheck(resolution, files) {
      const config = `tsconfig.${resolution}.json`;
      await writeFile(path.join(dir, config), JSON.stringify({ compilerOptions: { ...STRICTEST, ...RESOLUTIONS[resolution] }, files }, null, 2));
      try {
        await run(process.execPath, [path.join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: dir });
      } catch (error) {
        throw new Error(`tsc (${resolution}) failed:\n${(error as { stdout: string }).stdout}`, { cause: error });
      }
    },
    async run(program, env) {
      const { stdout } = await run(process.execPath, [path.join('out', `${program}.js`)], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } });
      return stdout;
    },
  };
}

/** The fenced code blocks of one language in a Markdown text, in order (indented ones, in list items, dedented). */
export function codeBlocks(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp('^( *)```' + language + '\\n([\\s\\S]*?)^\\1```', 'gm');
  for (const match of markdown.matchAll(fence)) {
    const indent = match[1]!.length;
    blocks.push(match[2]!.split('\n').map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n'));
  }
  return blocks;
}

/** The files below a folder, for messages. */
export async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}
