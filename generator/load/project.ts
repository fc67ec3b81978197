import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GeneratorError } from '../errors.js';

/** What the SDK packages take from the project's own package.json. */
export interface ProjectInfo {
  readonly version: string;
  readonly license: string;
  /** The project's runtime dependencies with their ranges; an SDK that needs one takes the same range. */
  readonly dependencies: Readonly<Record<string, string>>;
}

/** Load phase: the version, licence and dependency ranges of the project (`package.json`). */
export async function loadProject(root: string): Promise<ProjectInfo> {
  const file = 'package.json';
  let json: { version?: unknown; license?: unknown; dependencies?: unknown };
  try {
    json = JSON.parse(await readFile(path.join(root, file), 'utf8')) as typeof json;
  } catch (error) {
    throw new GeneratorError(file, '', `cannot be read: ${(error as Error).message}`);
  }
  if (typeof json.version !== 'string') throw new GeneratorError(file, '/version', 'must be a version string');
  if (typeof json.license !== 'string') throw new GeneratorError(file, '/license', 'must name the licence (the SDK packages carry it)');
  return { version: json.version, license: json.license, dependencies: (json.dependencies ?? {}) as Record<string, string> };
}
