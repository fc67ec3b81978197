import { scopeOf } from '../auth.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];
/** Operations every caller may use, with or without tokens (the server checks no scope there). */
const OPEN_TAG = 'discovery';

/**
 * generated/openapi.json as this server answers it: its own base URL in `servers`, and, when
 * tokens are configured, the credentials each operation needs: the scope the server checks
 * (auth.ts's scopeOf, so the two cannot differ) on every collection and measurement-store
 * operation, none on discovery. Without tokens, credentials stay optional, as the file says.
 */
export function servedDescription(document: Json, options: { readonly baseUrl: string; readonly secured: boolean }): Json {
  const served: Json = { ...document, servers: [{ url: options.baseUrl }] };
  if (!options.secured) return served;
  const paths: Json = {};
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    const copy: Json = { ...item };
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const open = ((operation.tags ?? []) as string[]).includes(OPEN_TAG);
      copy[method] = { ...operation, security: open ? [] : [{ bearer: [scopeOf(method.toUpperCase())] }] };
    }
    paths[template] = copy;
  }
  return {
    ...served,
    security: [{ bearer: [] }],
    paths,
    info: { ...(document.info as Json), description: `${String((document.info as Json).description)} This server requires bearer tokens: each operation names the scope it needs; discovery is open.` },
  };
}
