// The linter and the formatter: ESLint with typescript-eslint's recommended rules, and the
// ESLint Stylistic rules as the formatter (`npm run format` applies them). `npm test` runs
// `npm run lint` first.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';
import { importCycles } from './tools/lint/import-cycles.js';

/**
 * The layers (docs/internals.md, "Layers"): the server never imports the generator, nor the
 * generator the server; below that, each folder of server/ names the sibling folders it must not
 * import. A relative import reaches server/ through as many `../` as the file is deep, so each
 * folder gets one pattern per depth.
 */
const SERVER_FOLDERS = ['catalog', 'federation', 'http', 'kinds', 'measurements', 'metrics', 'query', 'rest', 'schema-check', 'soap', 'storage', 'subscriptions', 'wire'];
const LAYERS = {
  // The query language: parsing, typing, matching; nothing else of the server (nor anything above it but the
  // contract table its grammar is written in, generated/rest/contract.ts: see below).
  query: SERVER_FOLDERS.filter((f) => f !== 'query'),
  // Storage knows no HTTP, no protocol and no wire form.
  storage: ['catalog', 'federation', 'http', 'kinds', 'measurements', 'metrics', 'rest', 'soap', 'subscriptions', 'wire', 'schema-check'],
  // The kinds the server stores that no schema makes, and the list of every stored kind: a leaf
  // below wire/, so that what renders, checks or imports resources does not reach the routes.
  kinds: SERVER_FOLDERS.filter((f) => f !== 'kinds'),
  // The wire form sits below every protocol that writes it.
  wire: ['catalog', 'federation', 'measurements', 'metrics', 'rest', 'soap', 'subscriptions', 'schema-check'],
  // HTTP plumbing (errors, access line, request context) below the operations.
  http: ['catalog', 'federation', 'measurements', 'rest', 'soap', 'subscriptions', 'wire', 'schema-check'],
  subscriptions: ['catalog', 'federation', 'measurements', 'rest', 'soap', 'schema-check'],
  // rest/ and federation/ import neither the other: the keyed-kind check is rest's, the JSON
  // array streamer wire's, a malformed query's 400 the error table's (http/), and the top
  // (server/collections.ts) binds /register's kind to the REST operations.
  rest: ['catalog', 'federation', 'measurements', 'soap', 'schema-check'],
  // Registrations, the lookup's redirects and `federate=true`: below the top, beside rest/.
  federation: ['catalog', 'measurements', 'rest', 'soap', 'subscriptions', 'schema-check'],
  measurements: ['catalog', 'federation', 'soap', 'schema-check'],
  // The catalog's operations know no SOAP envelope and no REST.
  catalog: ['federation', 'http', 'measurements', 'rest', 'soap', 'subscriptions', 'wire', 'schema-check'],
  soap: ['federation', 'measurements', 'rest', 'subscriptions', 'wire', 'schema-check'],
  metrics: ['catalog', 'federation', 'http', 'measurements', 'query', 'rest', 'soap', 'subscriptions', 'wire', 'schema-check'],
};
const up = (depth) => `(\\.\\./){${depth}}`;
const NO_GENERATOR = { regex: '^(\\.\\./)+generator/', message: 'the server never imports the generator (docs/internals.md)' };
const NO_SERVER = { regex: '^(\\.\\./)+server/', message: 'the generator never imports the server (docs/internals.md)' };
/** One config per folder and depth: a later config replaces a rule's options, so each carries NO_GENERATOR too. */
const layerConfigs = Object.entries(LAYERS).flatMap(([folder, forbidden]) =>
  [1, 2, 3, 4].map((depth) => ({
    files: [`server/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          NO_GENERATOR,
          folder === 'query'
            ? { regex: `^${up(depth)}(?!\\.\\./generated/rest/contract\\.js$)`, message: 'server/query/ imports nothing outside itself but the contract table, generated/rest/contract.js (the layers of docs/internals.md)' }
            : { regex: `^${up(depth)}(${forbidden.join('|')})/`, message: `server/${folder}/ does not import ${forbidden.join(', ')} (the layers of docs/internals.md)` },
        ],
      }],
    },
  })));

/**
 * Storage's contract (server/storage/contract/: the Dialect's parts, Database, rows, the event
 * order) is its floor: it imports nothing else of storage, so the stores, the engines and the
 * opener all stand on it and none of them on each other through it.
 */
const contractConfig = {
  files: ['server/storage/contract/*.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        NO_GENERATOR,
        { regex: `^${up(2)}(${LAYERS.storage.join('|')})/`, message: `server/storage/ does not import ${LAYERS.storage.join(', ')} (the layers of docs/internals.md)` },
        { regex: '^\\.\\./(?!\\.\\./)', message: 'server/storage/contract/ imports nothing else of storage (docs/internals.md, "Layers")' },
      ],
    }],
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'generated/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    plugins: { '@stylistic': stylistic },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@stylistic/indent': ['error', 2, { SwitchCase: 1, flatTernaryExpressions: true, offsetTernaryExpressions: true, ignoredNodes: ['CallExpression[arguments.length>1] > *', 'ArrowFunctionExpression > ArrowFunctionExpression'] }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/array-bracket-spacing': ['error', 'never'],
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/eol-last': 'error',
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0 }],
      '@stylistic/no-tabs': 'error',
      '@stylistic/member-delimiter-style': 'error',
      '@stylistic/type-annotation-spacing': 'error',
      '@stylistic/max-len': ['error', { code: 240, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_GENERATOR] }] } },
  { files: ['generator/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_SERVER] }] } },
  ...layerConfigs,
  contractConfig,
  {
    // No import cycles anywhere, type-only imports included (tools/lint/import-cycles.js).
    files: ['**/*.ts'],
    plugins: { topocat: { rules: { 'import-cycles': importCycles } } },
    rules: { 'topocat/import-cycles': 'error' },
  },
  {
    // Tests read JSON answers whose shape each assertion checks.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
