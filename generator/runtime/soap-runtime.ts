/*
 * What the generated SOAP readers, writers, dispatcher and client share: an XML parser with
 * hard limits, a writer, XML Schema primitives, SOAP 1.1 envelopes and faults. The only
 * dependency is saxes, a strict, namespace-aware XML parser that never expands DTD entities;
 * documents with a DOCTYPE are refused before any of it is read.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';

export const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** An element as the readers see it: names, attributes, child elements and its own text. */
export interface XmlNode {
  readonly namespace: string;
  readonly name: string;
  /** Unqualified attributes by local name; qualified ones as `{namespace}local`. */
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly XmlNode[];
  /** Character data directly inside this element (not inside its children). */
  readonly text: string;
}

/** Bounds on what a parse may build; hostile documents fail fast instead of exhausting memory. */
export interface ParseLimits {
  readonly maxDepth: number;
  readonly maxElements: number;
}

export const DEFAULT_LIMITS: ParseLimits = { maxDepth: 100, maxElements: 200_000 };

/** Not well-formed XML, or XML this runtime refuses (a DTD, a processing instruction). */
export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

/** Well-formed XML that breaks the schema; `path` names the offending element or attribute. */
export class XmlSchemaError extends Error {
  readonly path: string;
  readonly problem: string;
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'XmlSchemaError';
    this.path = path;
    this.problem = problem;
  }
}

interface Building {
  namespace: string;
  name: string;
  attributes: Map<string, string>;
  children: XmlNode[];
  text: string;
}

/** Parse a document into its root element. */
export function parseXml(source: string, limits: ParseLimits = DEFAULT_LIMITS): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Building[] = [];
  let root: XmlNode | undefined;
  let elements = 0;
  parser.on('doctype', () => {
    throw new XmlSyntaxError('DOCTYPE declarations are not accepted');
  });
  parser.on('processinginstruction', () => {
    throw new XmlSyntaxError('processing instructions are not accepted');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++elements > limits.maxElements) throw new XmlSyntaxError(`more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) throw new XmlSyntaxError(`elements nested deeper than ${limits.maxDepth} levels`);
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === XMLNS || attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attributes.set(attribute.uri === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`, attribute.value);
    }
    stack.push({ namespace: tag.uri, name: tag.local, attributes, children: [], text: '' });
  });
  const addText = (text: string): void => {
    const top = stack[stack.length - 1];
    if (top) top.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const node = stack.pop()!;
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else root = node;
  });
  // No 'error' handler: without one saxes throws its errors (plain Errors) from write() and
  // close(). A seventh handler would be one property too many for V8 to keep the parser's
  // properties fast: every saxes field read became a dictionary lookup, and a 544-byte SOAP
  // envelope took 40-50 µs to parse instead of 8-11 µs (a loop of 20,000 parses).
  try {
    parser.write(source).close();
  } catch (error) {
    throw error instanceof Error && error.constructor === Error ? new XmlSyntaxError(error.message) : error;
  }
  if (!root) throw new XmlSyntaxError('no root element');
  return root;
}

/** Reads the children of one element in schema order, and says precisely what is wrong. */
export class Cursor {
  private index = 0;
  readonly node: XmlNode;
  readonly path: string;
  private readonly namespace: string;

  constructor(node: XmlNode, path: string, namespace: string) {
    this.node = node;
    this.path = path;
    this.namespace = namespace;
  }

  /** The next child is the element `name` of the schema's namespace. */
  at(name: string): boolean {
    const next = this.node.children[this.index];
    return next !== undefined && next.name === name && next.namespace === this.namespace;
  }

  /** The next child is one of `names`. */
  atAny(names: ReadonlySet<string>): boolean {
    const next = this.node.children[this.index];
    return next !== undefined && next.namespace === this.namespace && names.has(next.name);
  }

  /** There is a next child, whatever it is (for xsd:any). */
  atElement(): boolean {
    return this.index < this.node.children.length;
  }

  take(): XmlNode {
    return this.node.children[this.index++]!;
  }

  pathOf(child: XmlNode): string {
    return `${this.path}/${child.name}`;
  }

  missing(names: string | ReadonlySet<string>): never {
    const list = typeof names === 'string' ? names : [...names].join('> or <');
    const next = this.node.children[this.index];
    const found = next ? `, found <${next.name}>` : '';
    throw new XmlSchemaError(this.path, `expected <${list}>${found}`);
  }

  /** No children and no text may be left over. */
  end(): void {
    const next = this.node.children[this.index];
    if (next) throw new XmlSchemaError(this.pathOf(next), `unexpected element <${next.name}>${next.namespace !== this.namespace ? ` in namespace ${next.namespace || '(none)'}` : ''}`);
    if (this.node.text.trim() !== '') throw new XmlSchemaError(this.path, 'text is not allowed here');
  }

  /** Refuse unqualified attributes the type does not declare. */
  checkAttributes(known: ReadonlySet<string>): void {
    for (const name of this.node.attributes.keys()) {
      if (!name.startsWith('{') && !known.has(name)) throw new XmlSchemaError(`${this.path}/@${name}`, 'attribute not allowed');
    }
  }

  attribute(name: string): string | undefined {
    return this.node.attributes.get(name);
  }
}

/** The text of an element of simple type (no child elements allowed). */
export function simpleText(node: XmlNode, path: string): string {
  if (node.children.length > 0) throw new XmlSchemaError(path, `<${node.children[0]!.name}> is not allowed in a simple value`);
  return node.text;
}

/** True when the element carries xsi:nil="true"; then it must be empty, and nillable. */
export function isNil(node: XmlNode, path: string, nillable: boolean): boolean {
  const nil = node.attributes.get(`{${XSI}}nil`);
  if (nil === undefined || nil === 'false' || nil === '0') return false;
  if (nil !== 'true' && nil !== '1') throw new XmlSchemaError(`${path}/@xsi:nil`, 'must be a boolean');
  if (!nillable) throw new XmlSchemaError(path, 'is not nillable');
  if (node.children.length > 0 || node.text.trim() !== '') throw new XmlSchemaError(path, 'a nil element must be empty');
  return true;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
const DOUBLE = /^\s*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)\s*$/;
const DATE_TIME = /^\s*-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?\s*$/;
const DATE = /^\s*-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?\s*$/;

function integerIn(text: string, path: string, min: number, max: number, type: string): number {
  if (!INTEGER.test(text)) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not an ${type}`);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new XmlSchemaError(path, `${text.trim()} is out of range for ${type}`);
  return value;
}

/** XML Schema primitives: parse (with the element's path for errors) and format. */
export const xs = {
  string: (text: string): string => text,
  anyURI: (text: string): string => text.trim(),
  boolean(text: string, path: string): boolean {
    const value = text.trim();
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw new XmlSchemaError(path, `"${value.slice(0, 64)}" is not a boolean`);
  },
  int: (text: string, path: string): number => integerIn(text, path, -2147483648, 2147483647, 'xsd:int'),
  short: (text: string, path: string): number => integerIn(text, path, -32768, 32767, 'xsd:short'),
  long: (text: string, path: string): number => integerIn(text, path, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'xsd:long'),
  integer: (text: string, path: string): number => integerIn(text, path, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'xsd:integer'),
  decimal(text: string, path: string): number {
    if (!DECIMAL.test(text)) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not a decimal`);
    return Number(text);
  },
  double(text: string, path: string): number {
    if (!DOUBLE.test(text)) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not a double`);
    const value = text.trim();
    return value === 'INF' ? Infinity : value === '-INF' ? -Infinity : Number(value);
  },
  float: (text: string, path: string): number => xs.double(text, path),
  dateTime(text: string, path: string): string {
    if (!DATE_TIME.test(text) || Number.isNaN(Date.parse(text.trim()))) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not an xsd:dateTime`);
    return text.trim();
  },
  date(text: string, path: string): string {
    if (!DATE.test(text)) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not an xsd:date`);
    return text.trim();
  },
  formatBoolean: (value: boolean): string => (value ? 'true' : 'false'),
  formatNumber: (value: number): string => String(value),
};

/** Check a value against an enumeration. */
export function oneOf<T extends string>(allowed: ReadonlySet<string>, text: string, path: string, type: string): T {
  if (!allowed.has(text)) throw new XmlSchemaError(path, `"${text.slice(0, 64)}" is not a value of ${type}`);
  return text as T;
}

/** Characters XML 1.0 cannot carry at all; written as U+FFFD so output always parses. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TEXT_SPECIAL = /[&<>\r]/g;
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Text that is printable ASCII without `&`, `<`, `>` (and, in attributes, `"`, tab, line breaks)
 * is written as it is; one test is much cheaper than two replacements, and almost all text in
 * a response is such text.
 */
const TEXT_NEEDS_WORK = /[^\t\n\u0020-\u0025\u0027-\u003b\u003d\u003f-\u007e]/;
const ATTRIBUTE_NEEDS_WORK = /[^\u0020\u0021\u0023-\u0025\u0027-\u003b\u003d\u003f-\u007e]/;

export function escapeText(text: string): string {
  if (!TEXT_NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML, '\uFFFD').replace(TEXT_SPECIAL, (c) => ENTITIES[c]!);
}

export function escapeAttribute(text: string): string {
  if (!ATTRIBUTE_NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML, '\uFFFD').replace(ATTRIBUTE_SPECIAL, (c) => ENTITIES[c]!);
}

/**
 * Writes XML text; start tags stay open for attributes until content or the end follows.
 * Appends to one string: V8 keeps it as a rope and flattens it once, which is cheaper than
 * collecting tens of thousands of small parts and joining them.
 */
export class XmlOut {
  private out = '';
  private startOpen = false;

  start(tag: string): void {
    this.out += this.startOpen ? `><${tag}` : `<${tag}`;
    this.startOpen = true;
  }

  attribute(name: string, value: string): void {
    this.out += ` ${name}="${escapeAttribute(value)}"`;
  }

  text(value: string): void {
    if (value === '') return;
    if (this.startOpen) {
      this.out += '>';
      this.startOpen = false;
    }
    this.out += escapeText(value);
  }

  end(tag: string): void {
    if (this.startOpen) {
      this.out += '/>';
      this.startOpen = false;
    } else {
      this.out += `</${tag}>`;
    }
  }

  /** `<tag>value</tag>` */
  simple(tag: string, value: string): void {
    this.start(tag);
    this.text(value);
    this.end(tag);
  }

  /** `<tag xsi:nil="true"/>` (the message root declares the xsi prefix). */
  nil(tag: string): void {
    this.start(tag);
    this.attribute('xsi:nil', 'true');
    this.end(tag);
  }

  /** An element read from elsewhere (xsd:any, xsd:anyType), written back with its namespace. */
  node(node: XmlNode, tag: string = node.name): void {
    this.start(tag);
    this.attribute('xmlns', node.namespace);
    for (const [name, value] of node.attributes) if (!name.startsWith('{')) this.attribute(name, value);
    this.text(node.text);
    for (const child of node.children) this.node(child);
    this.end(tag);
  }

  toString(): string {
    return this.out;
  }
}

/** The SOAP 1.1 fault codes (SOAP 1.1 §4.4.1). */
export type FaultCode = 'VersionMismatch' | 'MustUnderstand' | 'Client' | 'Server';

/** A SOAP fault: thrown by the server for envelopes it cannot process, and by the client when it receives one. */
export class SoapFault extends Error {
  readonly code: FaultCode;
  readonly faultString: string;
  constructor(code: FaultCode, faultString: string) {
    super(`SOAP fault ${code}: ${faultString}`);
    this.name = 'SoapFault';
    this.code = code;
    this.faultString = faultString;
  }
}

/** A SOAP 1.1 envelope around header blocks and one body element, all given as XML text. */
export function envelope(body: string, headers: readonly string[] = []): string {
  const header = headers.length > 0 ? `<soapenv:Header>${headers.join('')}</soapenv:Header>` : '';
  return `<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11_ENVELOPE}">${header}<soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

export function faultEnvelope(fault: SoapFault): string {
  return envelope(
    `<soapenv:Fault><faultcode>soapenv:${fault.code}</faultcode><faultstring>${escapeText(fault.faultString)}</faultstring></soapenv:Fault>`,
  );
}

/** The header blocks and the body element of a SOAP 1.1 envelope. */
export interface OpenedEnvelope {
  readonly headers: readonly XmlNode[];
  readonly body: XmlNode | undefined;
  /** A Fault in the body, when the envelope carries one. */
  readonly fault?: SoapFault;
}

export function openEnvelope(root: XmlNode): OpenedEnvelope {
  if (root.name === 'Envelope' && root.namespace === SOAP12_ENVELOPE) {
    throw new SoapFault('VersionMismatch', 'SOAP 1.2 envelopes are not supported; this service speaks SOAP 1.1');
  }
  if (root.name !== 'Envelope' || root.namespace !== SOAP11_ENVELOPE) {
    throw new SoapFault('VersionMismatch', `expected a SOAP 1.1 Envelope, found <${root.name}> in ${root.namespace || 'no namespace'}`);
  }
  const elements = root.children;
  let position = 0;
  let headers: readonly XmlNode[] = [];
  if (elements[0]?.name === 'Header' && elements[0].namespace === SOAP11_ENVELOPE) {
    headers = elements[0].children;
    position = 1;
  }
  const body = elements[position];
  if (!body || body.name !== 'Body' || body.namespace !== SOAP11_ENVELOPE) throw new SoapFault('Client', 'the envelope has no Body');
  if (body.children.length > 1) throw new SoapFault('Client', 'the Body must hold exactly one element');
  const content = body.children[0];
  if (content && content.name === 'Fault' && content.namespace === SOAP11_ENVELOPE) {
    const code = content.children.find((c) => c.name === 'faultcode')?.text.trim() ?? 'Server';
    const text = content.children.find((c) => c.name === 'faultstring')?.text ?? '';
    const local = code.slice(code.indexOf(':') + 1);
    return { headers, body: undefined, fault: new SoapFault((['VersionMismatch', 'MustUnderstand', 'Client', 'Server'].includes(local) ? local : 'Server') as FaultCode, text) };
  }
  return { headers, body: content };
}
