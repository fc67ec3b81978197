/**
 * `npm run token -- --name ci --scopes read,create [--dn DN] [--file tokens.json]`
 *
 * Mints a bearer token. The token is printed once and never stored; the entry (its hash,
 * name, scopes, DN) is printed as JSON, or added to the tokens file with --file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mintToken, parseTokens, TOKEN_SCOPES, TokenConfigError, type TokenEntry, type TokenScope } from './tokens.js';

const USAGE = `usage: npm run token -- --name <name> --scopes read,create,update,delete[,admin][,metrics][,register] [--dn <DN>] [--file <tokens.json>]

Mints a bearer token. The token is printed once on stdout and stored nowhere; its entry (name,
SHA-256 hash, scopes, DN) is added to the tokens file with --file, or printed. Start the server
with TOPOCAT_TOKENS_FILE=<tokens.json> to require tokens.

  --name    a name for the client, unique in the file (it appears in the log)
  --scopes  read (GET, HEAD), create (POST), update (PUT, PATCH), delete (DELETE), admin (catalog users), metrics (GET /metrics),
            register (POST /register: instances reporting to this lookup)
  --dn      bind the token to a catalog identity (a distinguished name)
  --file    the tokens file to add the entry to (created when missing, mode 600)
  --help    this text`;

function fail(message: string): never {
  console.error(`error: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const values = (() => {
  try {
    return parseArgs({
      options: { name: { type: 'string' }, scopes: { type: 'string' }, dn: { type: 'string' }, file: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    return fail((error as Error).message.split('\n')[0]!);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.name) fail('--name is required');
const scopes = (values.scopes ?? '').split(',').map((s) => s.trim()).filter(Boolean);
if (scopes.length === 0) fail('--scopes is required');
for (const scope of scopes) if (!TOKEN_SCOPES.includes(scope as TokenScope)) fail(`unknown scope "${scope}"`);

const { token, hash } = mintToken();
const entry: TokenEntry = { name: values.name, hash, scopes: scopes as TokenScope[], ...(values.dn ? { dn: values.dn } : {}) };

if (values.file) {
  let existing: TokenEntry[] = [];
  try {
    if (existsSync(values.file)) existing = parseTokens(readFileSync(values.file, 'utf8'), values.file);
  } catch (error) {
    fail(error instanceof TokenConfigError ? error.message : String(error));
  }
  if (existing.some((e) => e.name === entry.name)) fail(`${values.file} already has a token named "${entry.name}"`);
  writeFileSync(values.file, `${JSON.stringify({ tokens: [...existing, entry] }, null, 2)}\n`, { mode: 0o600 });
  console.error(`added "${entry.name}" to ${values.file}`);
} else {
  console.error('add this entry to the tokens file (TOPOCAT_TOKENS_FILE):');
  console.error(JSON.stringify(entry));
}
console.error('the token (shown once; it is not stored anywhere):');
console.log(token);
