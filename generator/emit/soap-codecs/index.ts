import type { SoapService, XmlSimpleType } from '../../model/xml.js';
import { tsHeader, type GeneratedFile } from '../output.js';
import { pascalName } from '../soap-shape.js';
import { CodecContext, parseBuiltin } from './context.js';
import { Readers } from './readers.js';
import { Writers } from './writers.js';

/**
 * Readers and writers for every simple type, complex type and message element, generated from
 * the XSD as straight-line code (see readers.ts and writers.ts).
 */
export function emitSoapCodecs(service: SoapService, messageElements: readonly string[]): GeneratedFile {
  const context = new CodecContext(service);
  for (const simple of service.schema.simpleTypes) simpleParser(context, simple);
  const readers = new Readers(context);
  const writers = new Writers(context);
  for (const type of service.schema.complexTypes) {
    readers.emit(type);
    writers.emit(type);
  }
  for (const element of messageElements) messageElement(context, element);

  const typeNames = [
    ...service.schema.simpleTypes.map((t) => pascalName(t.name)),
    ...service.schema.complexTypes.map((t) => pascalName(t.name)),
    ...messageElements.map(pascalName),
  ];
  const content = [
    tsHeader(service.files),
    `import { Cursor, isNil, oneOf, simpleText, XmlOut, XmlSchemaError, XSI, xs, type XmlNode } from './runtime.js';`,
    `import type { ${[...new Set(typeNames)].join(', ')} } from './types.js';`,
    '',
    `/** The namespace of every element of the messages. */`,
    `export const NAMESPACE = ${JSON.stringify(service.schema.namespace)};`,
    '',
    context.constants.toString(),
    '',
    context.code.toString(),
  ].join('\n');
  return { path: 'soap/codecs.ts', content: `${content.trimEnd()}\n` };
}

/** `parse<T>` of a simple type: an enumeration check, or the base type's parser. */
function simpleParser(context: CodecContext, simple: XmlSimpleType): void {
  const { code } = context;
  const name = pascalName(simple.name);
  const body = simple.enumeration.length > 0 ? `oneOf<${name}>(${context.setOf(simple.enumeration, 'VALUES')}, text, path, ${JSON.stringify(simple.name)})` : parseBuiltin(simple.base, 'text', 'path');
  code.block(`export function parse${name}(text: string, path: string): ${name} {`, () => code.line(`return ${body};`));
  code.line();
}

/** Reader and writer of a message element: the document root of a request or response body. */
function messageElement({ service, code }: CodecContext, elementName: string): void {
  const element = service.schema.elements.find((e) => e.name === elementName)!;
  const alias = pascalName(elementName);
  const typeName = pascalName(element.type.name);
  const tag = JSON.stringify(elementName);
  code.block(`/** Read a <${elementName}> body element. */\nexport function read${alias}Element(node: XmlNode): ${alias} {`, () => {
    code.line(`const path = '/${elementName}';`);
    code.line(`if (node.name !== ${tag} || node.namespace !== NAMESPACE) throw new XmlSchemaError('/' + node.name, 'expected <${elementName}> in ' + NAMESPACE);`);
    code.line(`return read${typeName}(node, path);`);
  });
  code.line();
  code.block(`/** Write a <${elementName}> body element, declaring its namespaces. */\nexport function write${alias}Element(v: ${alias}): string {`, () => {
    code.line('const o = new XmlOut();');
    code.line(`o.start(${tag});`);
    code.line(`o.attribute('xmlns', NAMESPACE);`);
    code.line(`o.attribute('xmlns:xsi', XSI);`);
    code.line(`writeAttributes${typeName}(o, v);`);
    code.line(`writeContent${typeName}(o, v);`);
    code.line(`o.end(${tag});`);
    code.line('return o.toString();');
  });
  code.line();
}
