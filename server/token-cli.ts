/**
 * `npm run token -- --name ci --scopes read,create [--dn DN] [--file tokens.json]`
 *
 * Mints a bearer token. The token is printed once and never stored; the entry (its hash,
 * name, scopes, DN) is printed as JSON, or added to the tokens file with --file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mintToken, parseTokens, TOKEN_SCOPES, TokenConfigError, type TokenEntry, type TokenScope } from './tokens.js';

function fail(message: string): never {
  console.error(`error: ${message}`);
  console.error('usage: npm run token -- --name <name> --scopes read,create,update,delete[,admin] [--dn <DN>] [--file <tokens.json>]');
  process.exit(2);
}

const { values } = parseArgs({
  options: { name: { type: 'string' }, scopes: { type: 'string' }, dn: { type: 'string' }, file: { type: 'string' } },
});
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
