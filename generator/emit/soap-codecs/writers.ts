import type { XmlComplexType, XmlParticle, XmlTypeRef } from '../../model/xml.js';
import { membersOf, pascalName, type Member } from '../soap-shape.js';
import type { CodecContext } from './context.js';

/** Writers of a complex type: attributes, then elements in schema order, escaped. */
export class Writers {
  private readonly code;

  constructor(private readonly context: CodecContext) {
    this.code = context.code;
  }

  emit(type: XmlComplexType): void {
    const name = pascalName(type.name);
    const members = new Map(membersOf(this.context.service, type).map((m) => [m.name, m]));
    this.code.block(`function writeAttributes${name}(o: XmlOut, v: ${name}): void {`, () => {
      if (type.base) this.code.line(`writeAttributes${pascalName(type.base)}(o, v);`);
      for (const attribute of type.attributes) {
        this.code.line(`if (v.${attribute.name} !== undefined) o.attribute(${JSON.stringify(attribute.name)}, ${this.context.format(attribute.type, `v.${attribute.name}`)});`);
      }
    });
    this.code.line();
    this.code.block(`function writeContent${name}(o: XmlOut, v: ${name}): void {`, () => {
      if (type.base) this.code.line(`writeContent${pascalName(type.base)}(o, v);`);
      if (type.text) this.code.line(`o.text(${this.context.format(type.text, 'v.value')});`);
      if (type.content) this.particle(type.content, members);
    });
    this.code.line();
    this.code.block(`export function write${name}(o: XmlOut, tag: string, v: ${name}): void {`, () => {
      this.code.line('o.start(tag);');
      this.code.line(`writeAttributes${name}(o, v);`);
      this.code.line(`writeContent${name}(o, v);`);
      this.code.line('o.end(tag);');
    });
    this.code.line();
  }

  private value(type: XmlTypeRef, tag: string, value: string): string {
    if (type.kind === 'complex') return `write${pascalName(type.name)}(o, ${tag}, ${value});`;
    if (type.kind === 'builtin' && type.name === 'anyType') return `o.node(${value}, ${tag});`;
    return `o.simple(${tag}, ${this.context.format(type, value)});`;
  }

  private particle(particle: XmlParticle, members: Map<string, Member>): void {
    if (particle.kind === 'any') {
      this.code.line('for (const x of v.any ?? []) o.node(x);');
      return;
    }
    if (particle.kind !== 'element') {
      for (const item of particle.items) this.particle(item, members);
      return;
    }
    const member = members.get(particle.name)!;
    const tag = JSON.stringify(particle.name);
    const one = (value: string): string => (particle.nillable ? `if (${value} === null) o.nil(${tag}); else ${this.value(particle.type, tag, value)}` : this.value(particle.type, tag, value));
    if (member.array) this.code.line(`for (const x of v.${particle.name} ?? []) ${one('x')}`);
    else this.code.line(`if (v.${particle.name} !== undefined) ${one(`v.${particle.name}`)}`);
  }
}
