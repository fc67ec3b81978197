// The linter and the formatter: ESLint with typescript-eslint's recommended rules, and the
// ESLint Stylistic rules as the formatter (`npm run format` applies them). `npm test` runs
// `npm run lint` first.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

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
  {
    // Engine knowledge lives in the dialects (server/storage/dialects/): elsewhere a difference
    // between engines is a Dialect member or a capability flag, and `dialect.name` is only logged.
    files: ['server/**/*.ts'],
    ignores: ['server/storage/dialects/**'],
    rules: {
      'no-restricted-syntax': ['error', ...[
        'BinaryExpression > MemberExpression[property.name="name"]:matches([object.name="dialect"], [object.property.name="dialect"])',
        'SwitchStatement > MemberExpression.discriminant[property.name="name"]:matches([object.name="dialect"], [object.property.name="dialect"])',
      ].map((selector) => ({ selector, message: 'Engine knowledge belongs in server/storage/dialects/: make it a Dialect member or a capability flag.' }))],
    },
  },
  {
    // Tests read JSON answers whose shape each assertion checks.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
