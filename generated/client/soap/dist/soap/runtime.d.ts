// Compiled from generated/soap/runtime.ts by npm run generate; do not edit. source ded6e0df0e0a00515cc48f39a510e2cc1ba93420b6a4d2be126615ea7bf0235e output aa9f9d0c71c0a5a33a99c875e7e291d4ee2ccd7275b6429b4851814d06f531cf
export declare const SOAP11_ENVELOPE = "http://schemas.xmlsoap.org/soap/envelope/";
export declare const SOAP12_ENVELOPE = "http://www.w3.org/2003/05/soap-envelope";
export declare const XSI = "http://www.w3.org/2001/XMLSchema-instance";
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
export declare const DEFAULT_LIMITS: ParseLimits;
/** Not well-formed XML, or XML this runtime refuses (a DTD, a processing instruction). */
export declare class XmlSyntaxError extends Error {
    constructor(message: string);
}
/** Well-formed XML that breaks the schema; `path` names the offending element or attribute. */
export declare class XmlSchemaError extends Error {
    readonly path: string;
    readonly problem: string;
    constructor(path: string, problem: string);
}
/** Parse a document into its root element. */
export declare function parseXml(source: string, limits?: ParseLimits): XmlNode;
/** Reads the children of one element in schema order, and says precisely what is wrong. */
export declare class Cursor {
    private index;
    readonly node: XmlNode;
    readonly path: string;
    private readonly namespace;
    constructor(node: XmlNode, path: string, namespace: string);
    /** The next child is the element `name` of the schema's namespace. */
    at(name: string): boolean;
    /** The next child is one of `names`. */
    atAny(names: ReadonlySet<string>): boolean;
    /** There is a next child, whatever it is (for xsd:any). */
    atElement(): boolean;
    take(): XmlNode;
    pathOf(child: XmlNode): string;
    missing(names: string | ReadonlySet<string>): never;
    /** No children and no text may be left over. */
    end(): void;
    /** Refuse unqualified attributes the type does not declare. */
    checkAttributes(known: ReadonlySet<string>): void;
    attribute(name: string): string | undefined;
}
/** The text of an element of simple type (no child elements allowed). */
export declare function simpleText(node: XmlNode, path: string): string;
/** True when the element carries xsi:nil="true"; then it must be empty, and nillable. */
export declare function isNil(node: XmlNode, path: string, nillable: boolean): boolean;
/** XML Schema primitives: parse (with the element's path for errors) and format. */
export declare const xs: {
    string: (text: string) => string;
    anyURI: (text: string) => string;
    boolean(text: string, path: string): boolean;
    int: (text: string, path: string) => number;
    short: (text: string, path: string) => number;
    long: (text: string, path: string) => number;
    integer: (text: string, path: string) => number;
    decimal(text: string, path: string): number;
    double(text: string, path: string): number;
    float: (text: string, path: string) => number;
    dateTime(text: string, path: string): string;
    date(text: string, path: string): string;
    formatBoolean: (value: boolean) => string;
    formatNumber: (value: number) => string;
};
/** Check a value against an enumeration. */
export declare function oneOf<T extends string>(allowed: ReadonlySet<string>, text: string, path: string, type: string): T;
export declare function escapeText(text: string): string;
export declare function escapeAttribute(text: string): string;
/**
 * Writes XML text; start tags stay open for attributes until content or the end follows.
 * Appends to one string: V8 keeps it as a rope and flattens it once, which is cheaper than
 * collecting tens of thousands of small parts and joining them.
 */
export declare class XmlOut {
    private out;
    private startOpen;
    start(tag: string): void;
    attribute(name: string, value: string): void;
    text(value: string): void;
    end(tag: string): void;
    /** `<tag>value</tag>` */
    simple(tag: string, value: string): void;
    /** `<tag xsi:nil="true"/>` (the message root declares the xsi prefix). */
    nil(tag: string): void;
    /** An element read from elsewhere (xsd:any, xsd:anyType), written back with its namespace. */
    node(node: XmlNode, tag?: string): void;
    toString(): string;
}
/** The SOAP 1.1 fault codes (SOAP 1.1 §4.4.1). */
export type FaultCode = 'VersionMismatch' | 'MustUnderstand' | 'Client' | 'Server';
/** A SOAP fault: thrown by the server for envelopes it cannot process, and by the client when it receives one. */
export declare class SoapFault extends Error {
    readonly code: FaultCode;
    readonly faultString: string;
    constructor(code: FaultCode, faultString: string);
}
/** A SOAP 1.1 envelope around header blocks and one body element, all given as XML text. */
export declare function envelope(body: string, headers?: readonly string[]): string;
export declare function faultEnvelope(fault: SoapFault): string;
/** The header blocks and the body element of a SOAP 1.1 envelope. */
export interface OpenedEnvelope {
    readonly headers: readonly XmlNode[];
    readonly body: XmlNode | undefined;
    /** A Fault in the body, when the envelope carries one. */
    readonly fault?: SoapFault;
}
export declare function openEnvelope(root: XmlNode): OpenedEnvelope;
