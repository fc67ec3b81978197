import { GeneratorError } from '../errors.js';
import type { SoapService, XmlComplexType, XmlParticle, XmlSimpleType, XmlTypeRef } from '../model/xml.js';

/**
 * How XML Schema content maps onto TypeScript members: every element of a content model
 * becomes a property, an array when it can occur more than once (also through a repeated
 * group), optional when it can be absent (also inside a choice). Attributes are properties
 * too; simple content is `value`; xsd:any is `any`. The interleaving of different elements in
 * a repeated choice is not kept: readers group them by name, writers write them in schema order,
 * which the schema accepts just the same.
 */
export interface Member {
  readonly name: string;
  readonly source: 'element' | 'attribute' | 'text' | 'any';
  /** Absent for `any`. */
  readonly type?: XmlTypeRef;
  readonly array: boolean;
  readonly optional: boolean;
  readonly nillable: boolean;
}

export function pascalName(name: string): string {
  return name[0]!.toUpperCase() + name.slice(1);
}

const BUILTIN_TS: Readonly<Record<string, string>> = {
  string: 'string',
  anyURI: 'string',
  dateTime: 'string',
  date: 'string',
  boolean: 'boolean',
  int: 'number',
  long: 'number',
  integer: 'number',
  short: 'number',
  decimal: 'number',
  double: 'number',
  float: 'number',
  anyType: 'XmlNode',
};

export function tsTypeOf(ref: XmlTypeRef): string {
  return ref.kind === 'builtin' ? BUILTIN_TS[ref.name]! : pascalName(ref.name);
}

/** The own members of a complex type (not its base's), in schema order. */
export function membersOf(service: SoapService, type: XmlComplexType): Member[] {
  const file = service.files[1] ?? service.wsdlFile;
  const members = new Map<string, Member>();
  const add = (member: Member): void => {
    const existing = members.get(member.name);
    if (existing) {
      if (existing.source !== member.source || JSON.stringify(existing.type) !== JSON.stringify(member.type)) {
        throw new GeneratorError(file, `complexType(${type.name})`, `"${member.name}" is declared twice with different meanings`);
      }
      members.set(member.name, { ...existing, array: true, optional: existing.optional || member.optional });
      return;
    }
    members.set(member.name, member);
  };
  for (const attribute of type.attributes) {
    add({ name: attribute.name, source: 'attribute', type: attribute.type, array: false, optional: !attribute.required, nillable: false });
  }
  if (type.text) add({ name: 'value', source: 'text', type: type.text, array: false, optional: false, nillable: false });
  const walk = (particle: XmlParticle, repeated: boolean, optional: boolean, inChoice: boolean): void => {
    const many = repeated || particle.max > 1;
    const maybe = optional || particle.min === 0 || inChoice;
    if (particle.kind === 'element') {
      add({ name: particle.name, source: 'element', type: particle.type, array: many, optional: maybe, nillable: particle.nillable });
    } else if (particle.kind === 'any') {
      add({ name: 'any', source: 'any', array: true, optional: true, nillable: false });
    } else {
      for (const item of particle.items) walk(item, many, maybe, particle.kind === 'choice' && particle.items.length > 1);
    }
  };
  if (type.content) walk(type.content, false, false, false);
  return [...members.values()];
}

/** Every complex type with its chain of bases resolved, for attribute lists. */
export function allAttributes(service: SoapService, type: XmlComplexType): string[] {
  const own = type.attributes.map((a) => a.name);
  if (!type.base) return own;
  const base = service.schema.complexTypes.find((t) => t.name === type.base)!;
  return [...allAttributes(service, base), ...own];
}

export function simpleTypeOf(service: SoapService, name: string): XmlSimpleType {
  return service.schema.simpleTypes.find((t) => t.name === name)!;
}

/** Element names that can start a particle; `*` stands for any element (xsd:any). */
export function firstOf(particle: XmlParticle): Set<string> {
  if (particle.kind === 'element') return new Set([particle.name]);
  if (particle.kind === 'any') return new Set(['*']);
  const first = new Set<string>();
  for (const item of particle.items) {
    firstOf(item).forEach((name) => first.add(name));
    if (particle.kind === 'sequence' && item.min > 0 && !canBeEmpty(item)) break;
  }
  return first;
}

/** True when a particle can match no element at all (it or all its contents are optional). */
export function canBeEmpty(particle: XmlParticle): boolean {
  if (particle.min === 0) return true;
  if (particle.kind === 'element' || particle.kind === 'any') return false;
  return particle.kind === 'sequence' ? particle.items.every(canBeEmpty) : particle.items.some(canBeEmpty);
}
