import { readFileSync } from 'node:fs';
import { projectRoot } from './paths.js';

/** The service's version: package.json's, as `--version`, `/health`, `/about` and the start line give it. */
export const version = (JSON.parse(readFileSync(`${projectRoot}package.json`, 'utf8')) as { version: string }).version;
