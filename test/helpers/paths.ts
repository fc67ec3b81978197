import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled project root (tests run from dist/test). */
export const distRoot = fileURLToPath(new URL('../../', import.meta.url));
export const projectRoot = path.resolve(distRoot, '..');
