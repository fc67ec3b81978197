import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { findKey, GeneratorError } from '../errors.js';
import { PROJECT_KEYWORDS } from '../keywords.js';
import type { Model } from '../model/model.js';
import { tsHeader, type GeneratedFile } from './output.js';
import { render } from './templates.js';

/**
 * Validators compiled ahead of time with Ajv's standalone code generation, so the server never
 * compiles schemas at start-up. `standalone.ts` is Ajv's output; `index.ts` wraps each function
 * with the kind's type and turns Ajv errors into `{ path, message }` issues with JSON pointers.
 */
export function emitValidators(model: Model): GeneratedFile[] {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true },
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
  });
  addFormats.default(ajv);
  for (const keyword of PROJECT_KEYWORDS) ajv.addKeyword(keyword);
  for (const document of model.documents) ajv.addSchema(document.json);

  const exports = Object.fromEntries(model.kinds.map((k) => [`validate${k.name}`, k.id]));
  let code: string;
  try {
    code = standaloneCode.default(ajv, exports).replace(/^"use strict";\n?/, '');
  } catch (error) {
    throw locateAjvError(model, error as Error);
  }
  const sources = model.documents.map((d) => d.file);

  const standalone = [
    tsHeader(sources),
    '// @ts-nocheck: Ajv emits plain JavaScript; index.ts gives it types.',
    "import { createRequire } from 'node:module';",
    '',
    '// Ajv\'s ESM output still loads its small runtime helpers with require().',
    'const require = createRequire(import.meta.url);',
    code.trim(),
    '',
  ].join('\n');

  const index = render('validators-index.ts', {
    header: tsHeader(sources),
    kinds: model.kinds.map((k) => ({ name: k.name, slug: k.slug })),
  });
  return [
    { path: 'validators/standalone.ts', content: standalone },
    { path: 'validators/index.ts', content: index },
  ];
}

/**
 * Ajv names the failing schema by `$id#pointer`; turn that into the file and pointer. Strict
 * mode's "unknown keyword" names only the keyword: it is found where the documents use it.
 */
function locateAjvError(model: Model, error: Error): GeneratorError {
  const match = /"([^"#]+)#([^"]*)"/.exec(error.message);
  const document = match ? model.documents.find((d) => d.id === match[1]) : undefined;
  if (document) return new GeneratorError(document.file, decodeURIComponent(match![2]!), error.message.replace(/ at "[^"]*"/, ''));
  const keyword = /unknown keyword: "([^"]+)"/.exec(error.message)?.[1];
  for (const d of keyword === undefined ? [] : model.documents) {
    const at = findKey(d.json, keyword!);
    if (at !== undefined) return new GeneratorError(d.file, at, `unknown keyword "${keyword}" (a typo? the project's own keywords are ${PROJECT_KEYWORDS.join(', ')})`);
  }
  return new GeneratorError('schemas', '', error.message);
}
