import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

const templateDir = fileURLToPath(new URL('../templates/', import.meta.url));

/**
 * The template engine with the few helpers templates need. Templates produce source code, so
 * HTML escaping is off; values that land inside string literals go through `json`.
 */
const engine = Handlebars.create();
engine.registerHelper('json', (value: unknown) => JSON.stringify(value));
engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
engine.registerHelper('join', (list: unknown[], separator: unknown) => list.join(typeof separator === 'string' ? separator : ', '));

const cache = new Map<string, Handlebars.TemplateDelegate>();

/** Render `templates/<name>.hbs` with `data`. */
export function render(name: string, data: object): string {
  let template = cache.get(name);
  if (!template) {
    const source = readFileSync(`${templateDir}${name}.hbs`, 'utf8');
    template = engine.compile(source, { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(data);
}
