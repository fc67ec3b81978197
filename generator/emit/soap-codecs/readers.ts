import type { XmlComplexType, XmlParticle, XmlTypeRef } from '../../model/xml.js';
import { allAttributes, canBeEmpty, firstOf, membersOf, pascalName, type Member } from '../soap-shape.js';
import type { CodecContext } from './context.js';

type ElementParticle = Extract<XmlParticle, { kind: 'element' }>;
type GroupParticle = Extract<XmlParticle, { kind: 'sequence' | 'choice' }>;

/**
 * Readers of a complex type as straight-line code: `fill<T>` walks the content model in schema
 * order and fails with the path of the offending element (cardinality, order, enumerations,
 * primitive formats, required attributes, xsi:nil); `read<T>` checks attributes and the end.
 */
export class Readers {
  private readonly code;

  constructor(private readonly context: CodecContext) {
    this.code = context.code;
  }

  emit(type: XmlComplexType): void {
    this.fill(type);
    this.read(type);
  }

  private fill(type: XmlComplexType): void {
    const name = pascalName(type.name);
    const members = new Map(membersOf(this.context.service, type).map((m) => [m.name, m]));
    this.code.block(`function fill${name}(c: Cursor, v: ${name}): void {`, () => {
      if (type.base) this.code.line(`fill${pascalName(type.base)}(c, v);`);
      for (const member of members.values()) if (member.array) this.code.line(`v.${member.name} = [];`);
      this.attributes(type);
      if (type.text) this.code.line(`v.value = ${this.context.parseSimple(type.text, 'simpleText(c.node, c.path)', 'c.path')};`);
      if (type.content) this.particle(type.content, members);
    });
    this.code.line();
  }

  private attributes(type: XmlComplexType): void {
    for (const attribute of type.attributes) {
      const at = JSON.stringify(`/@${attribute.name}`);
      this.code.block('{', () => {
        this.code.line(`const raw = c.attribute(${JSON.stringify(attribute.name)});`);
        if (attribute.default !== undefined) {
          this.code.line(`v.${attribute.name} = ${this.context.parseSimple(attribute.type, `raw ?? ${JSON.stringify(attribute.default)}`, `c.path + ${at}`)};`);
        } else {
          this.code.line(`if (raw !== undefined) v.${attribute.name} = ${this.context.parseSimple(attribute.type, 'raw', `c.path + ${at}`)};`);
          if (attribute.required) this.code.line(`else throw new XmlSchemaError(c.path + ${at}, 'required attribute is missing');`);
        }
      });
    }
  }

  private read(type: XmlComplexType): void {
    const name = pascalName(type.name);
    this.code.block(`export function read${name}(node: XmlNode, path: string): ${name} {`, () => {
      this.code.line(`const c = new Cursor(node, path, NAMESPACE);`);
      this.code.line(`c.checkAttributes(${this.context.setOf(allAttributes(this.context.service, type), 'ATTRIBUTES')});`);
      this.code.line(`const v = {} as ${name};`);
      this.code.line(`fill${name}(c, v);`);
      // Simple content is text; element-only content leaves none.
      if (!type.text && !this.hasTextBase(type)) this.code.line('c.end();');
      this.code.line('return v;');
    });
    this.code.line();
  }

  private hasTextBase(type: XmlComplexType): boolean {
    if (!type.base) return false;
    const base = this.context.service.schema.complexTypes.find((t) => t.name === type.base)!;
    return base.text !== undefined || this.hasTextBase(base);
  }

  /** The expression reading one element node `n` at path `at` into a value of `type`. */
  private value(type: XmlTypeRef): string {
    if (type.kind === 'complex') return `read${pascalName(type.name)}(n, at)`;
    if (type.kind === 'builtin' && type.name === 'anyType') return 'n';
    return this.context.parseSimple(type, 'simpleText(n, at)', 'at');
  }

  /** `guarded`: the caller has already checked that the element is next (a choice branch). */
  private element(particle: ElementParticle, member: Member, guarded = false): void {
    const tag = JSON.stringify(particle.name);
    const store = (value: string): string => (member.array ? `v.${particle.name}.push(${value});` : `v.${particle.name} = ${value};`);
    const take = (): void => {
      this.code.line('const n = c.take();');
      this.code.line('const at = c.pathOf(n);');
      if (particle.nillable) this.code.line(store(`isNil(n, at, true) ? null : ${this.value(particle.type)}`));
      else {
        this.code.line('isNil(n, at, false);');
        this.code.line(store(this.value(particle.type)));
      }
    };
    if (particle.max === 1) {
      if (guarded) take();
      else this.code.block(`if (c.at(${tag})) {`, take, particle.min > 0 ? `} else c.missing(${tag});` : '}');
      return;
    }
    this.repeat(particle, `c.at(${tag})`, take, `c.missing(${tag})`);
  }

  /** A loop over occurrences, counting only when a bound needs checking. */
  private repeat(particle: XmlParticle, condition: string, body: () => void, missingCall: string): void {
    if (particle.max === Infinity && particle.min === 0) {
      this.code.block(`while (${condition}) {`, body);
      return;
    }
    this.code.block('{', () => {
      this.code.line('let k = 0;');
      this.code.block(`while (${particle.max === Infinity ? '' : `k < ${particle.max} && `}${condition}) {`, () => {
        body();
        this.code.line('k++;');
      });
      if (!canBeEmpty(particle)) this.code.line(`if (k < ${particle.min}) ${missingCall};`);
    });
  }

  private guard(particle: XmlParticle): string {
    const first = firstOf(particle);
    return first.has('*') ? 'c.atElement()' : first.size === 1 ? `c.at(${JSON.stringify([...first][0])})` : `c.atAny(${this.context.setOf(first, 'FIRST')})`;
  }

  private missing(particle: XmlParticle): string {
    const first = [...firstOf(particle)].filter((n) => n !== '*');
    return first.length === 1 ? `c.missing(${JSON.stringify(first[0])})` : `c.missing(${this.context.setOf(first, 'FIRST')})`;
  }

  /** Code that consumes one occurrence of a group's body. */
  private groupBody(particle: GroupParticle, members: Map<string, Member>): void {
    if (particle.kind === 'sequence') {
      for (const item of particle.items) this.particle(item, members);
      return;
    }
    particle.items.forEach((item, i) => {
      if (i === 0) this.code.open(`if (${this.guard(item)}) {`);
      else this.code.middle(`} else if (${this.guard(item)}) {`);
      if (item.kind === 'element') this.element(item, members.get(item.name)!, true);
      else this.particle(item, members);
    });
    this.code.close();
  }

  private particle(particle: XmlParticle, members: Map<string, Member>): void {
    if (particle.kind === 'element') return this.element(particle, members.get(particle.name)!);
    if (particle.kind === 'any') {
      this.code.line(`for (let k = 0; ${particle.max === Infinity ? '' : `k < ${particle.max} && `}c.atElement(); k++) v.any.push(c.take());`);
      return;
    }
    if (particle.max === 1) {
      if (particle.min === 1 && particle.kind === 'sequence') return this.groupBody(particle, members);
      // A required group whose contents are all optional (queryResponseSet's choice) may be empty.
      this.code.block(`if (${this.guard(particle)}) {`, () => this.groupBody(particle, members), canBeEmpty(particle) ? '}' : `} else ${this.missing(particle)};`);
      return;
    }
    this.repeat(particle, this.guard(particle), () => this.groupBody(particle, members), this.missing(particle));
  }
}
