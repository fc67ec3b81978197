import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GeneratedFile } from './emit/output.js';

/** How the output directory differs from what the generator produced. */
export interface Difference {
  readonly changed: string[];
  readonly missing: string[];
  /** Files in the output directory that no source produces any more. */
  readonly orphaned: string[];
}

export function isClean(d: Difference): boolean {
  return d.changed.length === 0 && d.missing.length === 0 && d.orphaned.length === 0;
}

/** Compare `files` with the output directory, which the generator owns entirely. */
export async function compare(outDir: string, files: readonly GeneratedFile[]): Promise<Difference> {
  const existing = new Set(await listFiles(outDir));
  const changed: string[] = [];
  const missing: string[] = [];
  for (const file of files) {
    if (!existing.has(file.path)) {
      missing.push(file.path);
      continue;
    }
    existing.delete(file.path);
    if ((await readFile(path.join(outDir, file.path), 'utf8')) !== file.content) changed.push(file.path);
  }
  return { changed, missing, orphaned: [...existing].sort() };
}

/** Write what changed, delete orphans and directories they leave empty. */
export async function apply(outDir: string, files: readonly GeneratedFile[], difference: Difference): Promise<void> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const relative of [...difference.missing, ...difference.changed]) {
    const target = path.join(outDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, byPath.get(relative)!.content);
  }
  for (const relative of difference.orphaned) {
    await rm(path.join(outDir, relative));
    await removeEmptyParents(outDir, path.dirname(path.join(outDir, relative)));
  }
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  const stop = path.resolve(root);
  for (let current = path.resolve(dir); current.startsWith(stop) && current !== stop; current = path.dirname(current)) {
    if ((await readdir(current)).length > 0) return;
    await rmdir(current);
  }
}

/** Every file under `dir`, as sorted POSIX paths relative to it; none when it does not exist. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const found: string[] = [];
  for (const entry of entries) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await listFiles(dir, relative)));
    else found.push(relative);
  }
  return found.sort();
}
