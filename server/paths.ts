import { fileURLToPath } from 'node:url';

/**
 * The project root, for files the server reads at start (generated/openapi.json, wsdl/).
 * This module compiles to dist/server/paths.js, two levels below the root.
 */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
