import type { SoapService, XmlComplexType, XmlParticle, XmlTypeRef } from '../model/xml.js';
import { tsHeader, type GeneratedFile } from './output.js';
import { allAttributes, canBeEmpty, firstOf, membersOf, pascalName, simpleTypeOf, type Member } from './soap-shape.js';

/** Lines of code with indentation, so generated functions read like written ones. */
class Code {
  private readonly lines: string[] = [];
  private depth = 0;
  line(text = ''): this {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    return this;
  }
  open(text: string): this {
    this.line(text);
    this.depth++;
    return this;
  }
  /** A line between two indented bodies, such as `} else if (…) {`. */
  middle(text: string): this {
    this.depth--;
    this.line(text);
    this.depth++;
    return this;
  }
  close(text = '}'): this {
    this.depth--;
    return this.line(text);
  }
  block(opening: string, body: () => void, closing = '}'): this {
    this.open(opening);
    body();
    return this.close(closing);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

/**
 * Readers and writers for every complex type and message element, generated from the XSD as
 * straight-line code: each reader walks its content model in schema order and fails with the
 * path of the offending element (cardinality, order, enumerations, primitive formats, required
 * attributes, xsi:nil); each writer emits elements in schema order with proper escaping.
 */
export function emitSoapCodecs(service: SoapService, messageElements: readonly string[]): GeneratedFile {
  const code = new Code();
  const constants = new Code();
  const sets = new Map<string, string>();
  /** A module-level Set constant for a group of element names, shared by equal groups. */
  const setOf = (names: ReadonlySet<string> | readonly string[], prefix: string): string => {
    const list = [...names].sort();
    const key = `${prefix}:${list.join(',')}`;
    let name = sets.get(key);
    if (!name) {
      name = `${prefix}${sets.size}`;
      sets.set(key, name);
      constants.line(`const ${name}: ReadonlySet<string> = new Set(${JSON.stringify(list)});`);
    }
    return name;
  };

  for (const simple of service.schema.simpleTypes) {
    const name = pascalName(simple.name);
    if (simple.enumeration.length > 0) {
      const set = setOf(simple.enumeration, 'VALUES');
      code.block(`export function parse${name}(text: string, path: string): ${name} {`, () => {
        code.line(`return oneOf<${name}>(${set}, text, path, ${JSON.stringify(simple.name)});`);
      });
    } else {
      code.block(`export function parse${name}(text: string, path: string): ${name} {`, () => code.line(`return ${parseBuiltin(simple.base, 'text', 'path')};`));
    }
    code.line();
  }

  const parseSimple = (type: XmlTypeRef, text: string, path: string): string =>
    type.kind === 'builtin' ? parseBuiltin(type.name, text, path) : `parse${pascalName(type.name)}(${text}, ${path})`;

  /** Text of a simple value of `type` (writers). */
  const format = (type: XmlTypeRef, value: string): string => {
    const builtin = type.kind === 'builtin' ? type.name : type.kind === 'simple' ? simpleTypeOf(service, type.name).base : undefined;
    if (builtin === 'boolean') return `xs.formatBoolean(${value})`;
    if (builtin && ['int', 'long', 'integer', 'short', 'decimal', 'double', 'float'].includes(builtin)) return `xs.formatNumber(${value})`;
    return value;
  };

  for (const type of service.schema.complexTypes) emitType(type);

  function emitType(type: XmlComplexType): void {
    const name = pascalName(type.name);
    const members = new Map(membersOf(service, type).map((m) => [m.name, m]));

    code.block(`function fill${name}(c: Cursor, v: ${name}): void {`, () => {
      if (type.base) code.line(`fill${pascalName(type.base)}(c, v);`);
      for (const member of members.values()) if (member.array) code.line(`v.${member.name} = [];`);
      for (const attribute of type.attributes) {
        const at = JSON.stringify(`/@${attribute.name}`);
        code.block('{', () => {
          code.line(`const raw = c.attribute(${JSON.stringify(attribute.name)});`);
          if (attribute.default !== undefined) {
            code.line(`v.${attribute.name} = ${parseSimple(attribute.type, `raw ?? ${JSON.stringify(attribute.default)}`, `c.path + ${at}`)};`);
          } else {
            code.line(`if (raw !== undefined) v.${attribute.name} = ${parseSimple(attribute.type, 'raw', `c.path + ${at}`)};`);
            if (attribute.required) code.line(`else throw new XmlSchemaError(c.path + ${at}, 'required attribute is missing');`);
          }
        });
      }
      if (type.text) code.line(`v.value = ${parseSimple(type.text, 'simpleText(c.node, c.path)', 'c.path')};`);
      if (type.content) readParticle(type.content, members);
    });
    code.line();
    code.block(`export function read${name}(node: XmlNode, path: string): ${name} {`, () => {
      code.line(`const c = new Cursor(node, path, NAMESPACE);`);
      code.line(`c.checkAttributes(${setOf(allAttributes(service, type), 'ATTRIBUTES')});`);
      code.line(`const v = {} as ${name};`);
      code.line(`fill${name}(c, v);`);
      // Simple content is text; element-only content leaves none.
      if (!type.text && !hasTextBase(type)) code.line('c.end();');
      code.line('return v;');
    });
    code.line();
    code.block(`function writeAttributes${name}(o: XmlOut, v: ${name}): void {`, () => {
      if (type.base) code.line(`writeAttributes${pascalName(type.base)}(o, v);`);
      for (const attribute of type.attributes) {
        code.line(`if (v.${attribute.name} !== undefined) o.attribute(${JSON.stringify(attribute.name)}, ${format(attribute.type, `v.${attribute.name}`)});`);
      }
    });
    code.line();
    code.block(`function writeContent${name}(o: XmlOut, v: ${name}): void {`, () => {
      if (type.base) code.line(`writeContent${pascalName(type.base)}(o, v);`);
      if (type.text) code.line(`o.text(${format(type.text, 'v.value')});`);
      if (type.content) writeParticle(type.content, members);
    });
    code.line();
    code.block(`export function write${name}(o: XmlOut, tag: string, v: ${name}): void {`, () => {
      code.line('o.start(tag);');
      code.line(`writeAttributes${name}(o, v);`);
      code.line(`writeContent${name}(o, v);`);
      code.line('o.end(tag);');
    });
    code.line();
  }

  function hasTextBase(type: XmlComplexType): boolean {
    if (!type.base) return false;
    const base = service.schema.complexTypes.find((t) => t.name === type.base)!;
    return base.text !== undefined || hasTextBase(base);
  }

  /** The expression reading one element node `n` at path `at` into a value of `type`. */
  function readValue(type: XmlTypeRef): string {
    if (type.kind === 'complex') return `read${pascalName(type.name)}(n, at)`;
    if (type.kind === 'builtin' && type.name === 'anyType') return 'n';
    return parseSimple(type, 'simpleText(n, at)', 'at');
  }

  /** `guarded`: the caller has already checked that the element is next (a choice branch). */
  function readElement(particle: Extract<XmlParticle, { kind: 'element' }>, member: Member, guarded = false): void {
    const tag = JSON.stringify(particle.name);
    const store = (value: string): string => (member.array ? `v.${particle.name}.push(${value});` : `v.${particle.name} = ${value};`);
    const take = (): void => {
      code.line('const n = c.take();');
      code.line('const at = c.pathOf(n);');
      if (particle.nillable) code.line(store(`isNil(n, at, true) ? null : ${readValue(particle.type)}`));
      else {
        code.line('isNil(n, at, false);');
        code.line(store(readValue(particle.type)));
      }
    };
    if (particle.max === 1) {
      if (guarded) take();
      else code.block(`if (c.at(${tag})) {`, take, particle.min > 0 ? `} else c.missing(${tag});` : '}');
      return;
    }
    repeat(particle, `c.at(${tag})`, take, `c.missing(${tag})`);
  }

  /** A loop over occurrences, counting only when a bound needs checking. */
  function repeat(particle: XmlParticle, condition: string, body: () => void, missingCall: string): void {
    if (particle.max === Infinity && particle.min === 0) {
      code.block(`while (${condition}) {`, body);
      return;
    }
    code.block('{', () => {
      code.line('let k = 0;');
      code.block(`while (${particle.max === Infinity ? '' : `k < ${particle.max} && `}${condition}) {`, () => {
        body();
        code.line('k++;');
      });
      if (!canBeEmpty(particle)) code.line(`if (k < ${particle.min}) ${missingCall};`);
    });
  }

  function guard(particle: XmlParticle): string {
    const first = firstOf(particle);
    return first.has('*') ? 'c.atElement()' : first.size === 1 ? `c.at(${JSON.stringify([...first][0])})` : `c.atAny(${setOf(first, 'FIRST')})`;
  }

  function missing(particle: XmlParticle): string {
    const first = [...firstOf(particle)].filter((n) => n !== '*');
    return first.length === 1 ? `c.missing(${JSON.stringify(first[0])})` : `c.missing(${setOf(first, 'FIRST')})`;
  }

  /** Code that consumes one occurrence of a group's body. */
  function groupBody(particle: Extract<XmlParticle, { kind: 'sequence' | 'choice' }>, members: Map<string, Member>): void {
    if (particle.kind === 'sequence') {
      for (const item of particle.items) readParticle(item, members);
      return;
    }
    particle.items.forEach((item, i) => {
      if (i === 0) code.open(`if (${guard(item)}) {`);
      else code.middle(`} else if (${guard(item)}) {`);
      if (item.kind === 'element') readElement(item, members.get(item.name)!, true);
      else readParticle(item, members);
    });
    code.close();
  }

  function readParticle(particle: XmlParticle, members: Map<string, Member>): void {
    if (particle.kind === 'element') return readElement(particle, members.get(particle.name)!);
    if (particle.kind === 'any') {
      code.line(`for (let k = 0; ${particle.max === Infinity ? '' : `k < ${particle.max} && `}c.atElement(); k++) v.any.push(c.take());`);
      return;
    }
    if (particle.max === 1) {
      if (particle.min === 1 && particle.kind === 'sequence') return groupBody(particle, members);
      // A required group whose contents are all optional (queryResponseSet's choice) may be empty.
      code.block(`if (${guard(particle)}) {`, () => groupBody(particle, members), canBeEmpty(particle) ? '}' : `} else ${missing(particle)};`);
      return;
    }
    repeat(particle, guard(particle), () => groupBody(particle, members), missing(particle));
  }

  function writeValue(type: XmlTypeRef, tag: string, value: string): string {
    if (type.kind === 'complex') return `write${pascalName(type.name)}(o, ${tag}, ${value});`;
    if (type.kind === 'builtin' && type.name === 'anyType') return `o.node(${value}, ${tag});`;
    return `o.simple(${tag}, ${format(type, value)});`;
  }

  function writeParticle(particle: XmlParticle, members: Map<string, Member>): void {
    if (particle.kind === 'any') {
      code.line('for (const x of v.any ?? []) o.node(x);');
      return;
    }
    if (particle.kind !== 'element') {
      for (const item of particle.items) writeParticle(item, members);
      return;
    }
    const member = members.get(particle.name)!;
    const tag = JSON.stringify(particle.name);
    const one = (value: string): string => (particle.nillable ? `if (${value} === null) o.nil(${tag}); else ${writeValue(particle.type, tag, value)}` : writeValue(particle.type, tag, value));
    if (member.array) code.line(`for (const x of v.${particle.name} ?? []) ${one('x')}`);
    else code.line(`if (v.${particle.name} !== undefined) ${one(`v.${particle.name}`)}`);
  }

  // Message elements: the document roots of request and response bodies.
  for (const elementName of messageElements) {
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
    constants.toString(),
    '',
    code.toString(),
  ].join('\n');
  return { path: 'soap/codecs.ts', content: `${content.trimEnd()}\n` };
}

function parseBuiltin(name: string, text: string, path: string): string {
  if (name === 'anyType') return text;
  return name === 'string' || name === 'anyURI' ? `xs.${name}(${text})` : `xs.${name}(${text}, ${path})`;
}
