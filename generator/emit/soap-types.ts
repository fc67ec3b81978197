import type { SoapService } from '../model/xml.js';
import { tsHeader, type GeneratedFile } from './output.js';
import { membersOf, pascalName, tsTypeOf } from './soap-shape.js';

/**
 * TypeScript types of every simple type, complex type and message element of the WSDL's
 * schema: enumerations become string unions, complex types interfaces (extensions extend).
 */
export function emitSoapTypes(service: SoapService, messageElements: readonly string[]): GeneratedFile {
  const lines: string[] = [tsHeader(service.files), "import type { XmlNode } from './runtime.js';", ''];
  for (const simple of service.schema.simpleTypes) {
    const union = simple.enumeration.length > 0 ? simple.enumeration.map((v) => JSON.stringify(v)).join(' | ') : tsTypeOf({ kind: 'builtin', name: simple.base });
    lines.push(`/** xsd:simpleType ${simple.name} */`, `export type ${pascalName(simple.name)} = ${union};`, '');
  }
  for (const type of service.schema.complexTypes) {
    const heritage = type.base ? ` extends ${pascalName(type.base)}` : '';
    lines.push(`/** xsd:complexType ${type.name} */`, `export interface ${pascalName(type.name)}${heritage} {`);
    for (const member of membersOf(service, type)) {
      const base = member.source === 'any' ? 'XmlNode' : tsTypeOf(member.type!);
      const value = member.nillable ? `${base} | null` : base;
      const typed = member.array ? (member.nillable ? `(${value})[]` : `${value}[]`) : value;
      if (member.source === 'attribute') lines.push('  /** attribute */');
      if (member.source === 'text') lines.push('  /** text content */');
      lines.push(`  ${member.name}${member.optional ? '?' : ''}: ${typed};`);
    }
    lines.push('}', '');
  }
  lines.push('// Message elements: the request and response of every operation.');
  for (const name of messageElements) {
    const element = service.schema.elements.find((e) => e.name === name)!;
    lines.push(`export type ${pascalName(name)} = ${tsTypeOf(element.type)};`);
  }
  return { path: 'soap/types.ts', content: `${lines.join('\n')}\n` };
}
