import type { SoapService, XmlTypeRef } from '../../model/xml.js';
import { Code } from '../code.js';
import { pascalName, simpleTypeOf } from '../soap-shape.js';

/**
 * What the reader and writer emitters share: the service, the code being written, and the
 * module-level constants (sets of element and attribute names) that code refers to.
 */
export class CodecContext {
  readonly code = new Code();
  readonly constants = new Code();
  private readonly sets = new Map<string, string>();

  constructor(readonly service: SoapService) {}

  /** A module-level Set constant for a group of names, shared by equal groups. */
  setOf(names: ReadonlySet<string> | readonly string[], prefix: string): string {
    const list = [...names].sort();
    const key = `${prefix}:${list.join(',')}`;
    let name = this.sets.get(key);
    if (!name) {
      name = `${prefix}${this.sets.size}`;
      this.sets.set(key, name);
      this.constants.line(`const ${name}: ReadonlySet<string> = new Set(${JSON.stringify(list)});`);
    }
    return name;
  }

  /** The expression parsing text `text` of a simple `type`, failing at `path`. */
  parseSimple(type: XmlTypeRef, text: string, path: string): string {
    return type.kind === 'builtin' ? parseBuiltin(type.name, text, path) : `parse${pascalName(type.name)}(${text}, ${path})`;
  }

  /** Text of a simple value of `type` (writers). */
  format(type: XmlTypeRef, value: string): string {
    const builtin = type.kind === 'builtin' ? type.name : type.kind === 'simple' ? simpleTypeOf(this.service, type.name).base : undefined;
    if (builtin === 'boolean') return `xs.formatBoolean(${value})`;
    if (builtin && ['int', 'long', 'integer', 'short', 'decimal', 'double', 'float'].includes(builtin)) return `xs.formatNumber(${value})`;
    return value;
  }
}

export function parseBuiltin(name: string, text: string, path: string): string {
  if (name === 'anyType') return text;
  return name === 'string' || name === 'anyURI' ? `xs.${name}(${text})` : `xs.${name}(${text}, ${path})`;
}
