import { compile, type Options } from 'json-schema-to-typescript';
import { RefResolver } from '../load/refs.js';
import type { JsonSchema, Model, SchemaDocument } from '../model/model.js';
import { tsHeader, type GeneratedFile } from './output.js';

const JSTT_OPTIONS: Partial<Options> = {
  bannerComment: '',
  unknownAny: true,
  additionalProperties: true,
  declareExternallyReferenced: true,
  format: true,
  strictIndexSignatures: false,
};

/**
 * TypeScript types, one file per schema document, compiled by json-schema-to-typescript.
 *
 * Every `$ref` to a titled schema is replaced by a `tsType` naming it, and the name is imported
 * from the file that declares it. So `Reference` or `NetworkResource` is declared once, in its
 * own file, instead of being copied into every kind that uses it.
 */
export async function emitTypes(model: Model): Promise<GeneratedFile[]> {
  const resolver = new RefResolver(model.documents);
  const files: GeneratedFile[] = [];
  for (const document of model.documents) {
    const imports = new Map<string, Set<string>>();
    const bodies: string[] = [];
    for (const unit of unitsOf(document)) {
      const schema = replaceRefs(unit, document, resolver, imports);
      bodies.push((await compile(schema, String(unit.title), JSTT_OPTIONS)).trim());
    }
    const importLines = [...imports.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([slug, names]) => `import type { ${[...names].sort().join(', ')} } from './${slug}.js';`);
    const content = [tsHeader([document.file]), importLines.join('\n'), bodies.join('\n\n')].filter(Boolean).join('\n') + '\n';
    files.push({ path: `types/${document.slug}.ts`, content });
  }
  const index = model.documents.map((d) => `export type * from './${d.slug}.js';`).join('\n');
  files.push({ path: 'types/index.ts', content: `${tsHeader(model.documents.map((d) => d.file))}\n${index}\n` });
  return files;
}

/**
 * The named types a document declares: its root (unless it only holds `$defs`) and each
 * titled `$defs` entry.
 */
function unitsOf(document: SchemaDocument): JsonSchema[] {
  const { $defs, $id: _id, $schema: _schema, ...root } = document.json;
  const units: JsonSchema[] = [];
  if ('type' in root || 'properties' in root || 'allOf' in root) units.push({ ...root, title: document.typeName });
  for (const def of Object.values(($defs ?? {}) as Record<string, JsonSchema>)) {
    if (typeof def.title === 'string') units.push(def);
  }
  return units;
}

function replaceRefs(schema: unknown, from: SchemaDocument, resolver: RefResolver, imports: Map<string, Set<string>>): JsonSchema {
  const visit = (value: unknown, document: SchemaDocument, stack: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => visit(v, document, stack));
    if (value === null || typeof value !== 'object') return value;
    const object = value as JsonSchema;
    const copy: JsonSchema = {};
    for (const [key, child] of Object.entries(object)) {
      if (key === '$ref' || key === '$defs') continue;
      copy[key] = visit(child, document, stack);
    }
    if (typeof object.$ref !== 'string') return copy;

    const target = resolver.resolve(document, object.$ref, '');
    const name = target.pointer === '' ? target.document.typeName : target.schema.title;
    if (typeof name === 'string') {
      if (target.document.slug !== from.slug) {
        const names = imports.get(target.document.slug) ?? new Set<string>();
        names.add(name.replace(/ /g, ''));
        imports.set(target.document.slug, names);
      }
      return { ...copy, tsType: name.replace(/ /g, '') };
    }
    // An untitled target (such as another kind's `id` property) has no name to import: inline it.
    const key = `${target.document.id}#${target.pointer}`;
    if (stack.includes(key)) return { ...copy, tsType: 'unknown' };
    return { ...(visit(target.schema, target.document, [...stack, key]) as JsonSchema), ...copy };
  };
  return visit(schema, from, []) as JsonSchema;
}
