import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { distRoot, projectRoot } from './server.js';

export const run = promisify(execFile);

/** Sources a copy of the project needs; node_modules is linked, not copied. */
const PARTS = ['package.json', 'tsconfig.json', 'generator', 'schemas', 'wsdl', 'generated', 'server', 'test', 'bench', 'tools'];

/** A private copy of the project to change without touching the real one. */
export async function copyProject(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'topocat-project-'));
  for (const part of PARTS) {
    await cp(path.join(projectRoot, part), path.join(dir, part), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Run the generator CLI of a project copy (as `npm run generate` does). */
export async function generate(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'generator/cli.ts', ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * A runnable server for a project copy whose `generated/` changed (a generate with other schemas):
 * this build's server (dist/server) with the copy's generated code compiled next to it, by esbuild,
 * one file at a time (no bundling, no type check). A second of work where `tsc -p .` of the whole
 * copy takes a minute or more; its entry point.
 */
export async function buildGeneratedServer(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  await cp(path.join(distRoot, 'server'), path.join(dir, 'dist/server'), { recursive: true });
  const sources = (await readdir(path.join(dir, 'generated'), { recursive: true })).filter((file) => file.endsWith('.ts') && !file.startsWith('client'));
  await build({ entryPoints: sources.map((file) => path.join(dir, 'generated', file)), outdir: path.join(dir, 'dist/generated'), outbase: path.join(dir, 'generated'), format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' });
  return path.join(dir, 'dist/server/main.js');
}
