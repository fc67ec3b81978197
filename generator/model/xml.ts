/**
 * The XML Schema part of the intermediate model: what the generator needs to know of the
 * WSDL's message types to emit TypeScript types, readers, writers and validation for them.
 * Everything is in one target namespace (docs/catalog-interface.md "Simplification").
 */

/** XML Schema built-in types the generator can read and write. */
export type XsdBuiltin =
  | 'string'
  | 'boolean'
  | 'int'
  | 'long'
  | 'integer'
  | 'short'
  | 'decimal'
  | 'double'
  | 'float'
  | 'dateTime'
  | 'date'
  | 'anyURI'
  | 'anyType';

export type XmlTypeRef =
  | { readonly kind: 'builtin'; readonly name: XsdBuiltin }
  | { readonly kind: 'simple'; readonly name: string }
  | { readonly kind: 'complex'; readonly name: string };

/** How often a particle may occur; `max` is Infinity for `unbounded`. */
export interface Occurs {
  readonly min: number;
  readonly max: number;
}

export interface XmlElementParticle extends Occurs {
  readonly kind: 'element';
  readonly name: string;
  readonly type: XmlTypeRef;
  readonly nillable: boolean;
}

export interface XmlGroupParticle extends Occurs {
  readonly kind: 'sequence' | 'choice';
  readonly items: readonly XmlParticle[];
}

/** `xsd:any`: any element, kept as it is. */
export interface XmlAnyParticle extends Occurs {
  readonly kind: 'any';
}

export type XmlParticle = XmlElementParticle | XmlGroupParticle | XmlAnyParticle;

export interface XmlAttribute {
  readonly name: string;
  readonly type: XmlTypeRef;
  readonly required: boolean;
  readonly default?: string;
}

/** A restriction of a built-in type, possibly to an enumeration. */
export interface XmlSimpleType {
  readonly name: string;
  readonly base: XsdBuiltin;
  readonly enumeration: readonly string[];
}

export interface XmlComplexType {
  readonly name: string;
  /** The complex type this one extends: its attributes and content come first. */
  readonly base?: string;
  readonly attributes: readonly XmlAttribute[];
  /** Element content (absent for empty or simple content). */
  readonly content?: XmlParticle;
  /** Simple content: the type of the element's text. */
  readonly text?: XmlTypeRef;
}

/** A global element declaration. */
export interface XmlElementDeclaration {
  readonly name: string;
  readonly type: XmlTypeRef;
  readonly nillable: boolean;
}

export interface XmlSchema {
  readonly namespace: string;
  readonly simpleTypes: readonly XmlSimpleType[];
  readonly complexTypes: readonly XmlComplexType[];
  readonly elements: readonly XmlElementDeclaration[];
}

/** The SOAP service of the WSDL: its names, address and message types. */
export interface SoapService {
  /** The WSDL and types files, relative to the project root. */
  readonly files: readonly string[];
  readonly wsdlFile: string;
  readonly name: string;
  readonly port: string;
  readonly binding: string;
  readonly portType: string;
  /** The WSDL's target namespace. */
  readonly namespace: string;
  /** The placeholder address in the WSDL; the server substitutes its own. */
  readonly address: string;
  readonly schema: XmlSchema;
}
