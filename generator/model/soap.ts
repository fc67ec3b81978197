import { GeneratorError } from '../errors.js';
import type { LoadedWsdl, SoapNode, SoapSchema } from '../load/wsdl.js';
import type { Operation } from './model.js';
import type {
  SoapService,
  XmlAttribute,
  XmlComplexType,
  XmlElementDeclaration,
  XmlParticle,
  XmlSimpleType,
  XmlTypeRef,
  XsdBuiltin,
} from './xml.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';
const BUILTINS = new Set<XsdBuiltin>(['string', 'boolean', 'int', 'long', 'integer', 'short', 'decimal', 'double', 'float', 'dateTime', 'date', 'anyURI', 'anyType']);

export interface SoapModel {
  readonly service: SoapService;
  readonly operations: readonly Operation[];
}

/**
 * Model phase for the SOAP side: the loaded WSDL's service, binding and message types turned
 * into the XML part of the intermediate model. Errors name the file and the schema component,
 * e.g. `wsdl/catalog-types.xsd#complexType(userType)/element(userId)`.
 */
export function buildSoapModel({ wsdlFile, definitions, typesNamespace, typesFile }: LoadedWsdl): SoapModel {
  const serviceNames = Object.keys(definitions.services);
  if (serviceNames.length !== 1) throw new GeneratorError(wsdlFile, '', `expected one wsdl:service, found ${serviceNames.length}`);
  const serviceName = serviceNames[0]!;
  const ports = Object.entries(definitions.services[serviceName]!.ports);
  if (ports.length !== 1) throw new GeneratorError(wsdlFile, `service(${serviceName})`, `expected one port, found ${ports.length}`);
  const [portName, port] = ports[0]!;
  // The parser links the port to its binding object and drops the names; find them again.
  const bindingName = Object.entries(definitions.bindings).find(([, b]) => b === port.binding)?.[0];
  if (!bindingName) throw new GeneratorError(wsdlFile, `port(${portName})`, 'the port\'s binding is not defined');
  const binding = port.binding;
  const portTypes = Object.keys(definitions.portTypes);
  if (portTypes.length !== 1) throw new GeneratorError(wsdlFile, '', `expected one wsdl:portType, found ${portTypes.length}`);
  const portTypeName = portTypes[0]!;

  const schema = definitions.schemas[typesNamespace]!;
  const reader = new SchemaReader(schema, typesFile);

  const operations: Operation[] = [];
  for (const [name, method] of Object.entries(binding.methods)) {
    const at = `binding(${bindingName})/operation(${name})`;
    if ((method.style ?? binding.style) !== 'document') throw new GeneratorError(wsdlFile, at, 'only document style is supported');
    if (!method.input || !method.output) throw new GeneratorError(wsdlFile, at, 'request/response operations need an input and an output');
    const requestElement = method.input.$name;
    const responseElement = method.output.$name;
    for (const element of [requestElement, responseElement]) {
      if (!schema.elements[element]) throw new GeneratorError(wsdlFile, at, `message element ${element} is not declared in ${typesFile}`);
    }
    operations.push({
      name,
      summary: `SOAP operation ${name}`,
      soap: { action: method.soapAction ?? `urn:${name}`, requestElement, responseElement },
    });
  }
  const requests = new Set<string>();
  for (const op of operations) {
    if (requests.has(op.soap!.requestElement)) {
      throw new GeneratorError(wsdlFile, `operation(${op.name})`, `request element ${op.soap!.requestElement} is shared; dispatch by body element needs one per operation`);
    }
    requests.add(op.soap!.requestElement);
  }

  return {
    service: {
      files: [wsdlFile, typesFile],
      wsdlFile,
      name: serviceName,
      port: portName,
      binding: bindingName,
      portType: portTypeName,
      namespace: definitions.$targetNamespace,
      address: port.location,
      schema: {
        namespace: typesNamespace,
        simpleTypes: Object.keys(schema.types).map((n) => reader.simpleType(n)),
        complexTypes: Object.keys(schema.complexTypes).map((n) => reader.complexType(n)),
        elements: Object.keys(schema.elements).map((n) => reader.element(n)),
      },
    },
    operations,
  };
}

function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

function occurs(node: SoapNode, at: string, file: string): { min: number; max: number } {
  const min = node.$minOccurs === undefined ? 1 : Number(node.$minOccurs);
  const max = node.$maxOccurs === undefined ? 1 : node.$maxOccurs === 'unbounded' ? Infinity : Number(node.$maxOccurs);
  if (!Number.isInteger(min) || min < 0 || !(max >= min)) throw new GeneratorError(file, at, 'invalid minOccurs/maxOccurs');
  return { min, max };
}

/** Converts node-soap's element tree of one schema into model declarations. */
class SchemaReader {
  constructor(
    private readonly schema: SoapSchema,
    private readonly file: string,
  ) {}

  private fail(at: string, message: string): never {
    throw new GeneratorError(this.file, at, message);
  }

  /** Resolve a QName such as `ct:userType` or `xsd:string`. */
  typeRef(qname: string, at: string): XmlTypeRef {
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const local = qname.slice(colon + 1);
    const namespace = colon < 0 ? this.schema.$targetNamespace : this.schema.xmlns[prefix];
    if (namespace === XSD) {
      if (!BUILTINS.has(local as XsdBuiltin)) this.fail(at, `built-in type xsd:${local} is not supported`);
      return { kind: 'builtin', name: local as XsdBuiltin };
    }
    if (namespace !== this.schema.$targetNamespace) this.fail(at, `type ${qname} is outside the types namespace`);
    if (this.schema.complexTypes[local]) return { kind: 'complex', name: local };
    if (this.schema.types[local]) return { kind: 'simple', name: local };
    return this.fail(at, `type ${qname} is not defined`);
  }

  simpleType(name: string): XmlSimpleType {
    const at = `simpleType(${name})`;
    const restriction = this.schema.types[name]!.children.find((c) => c.name === 'restriction');
    if (!restriction?.$base) return this.fail(at, 'only restrictions of built-in types are supported');
    const base = this.typeRef(restriction.$base, at);
    if (base.kind !== 'builtin') return this.fail(at, 'only restrictions of built-in types are supported');
    const enumeration = restriction.children.filter((c) => c.name === 'enumeration').map((c) => c.$value!);
    return { name, base: base.name, enumeration };
  }

  element(name: string): XmlElementDeclaration {
    const node = this.schema.elements[name]!;
    const at = `element(${name})`;
    if (!node.$type) return this.fail(at, 'global elements need a named type');
    return { name, type: this.typeRef(node.$type, at), nillable: node.$nillable === 'true' };
  }

  complexType(name: string): XmlComplexType {
    const at = `complexType(${name})`;
    const attributes: XmlAttribute[] = [];
    let content: XmlParticle | undefined;
    let base: string | undefined;
    let text: XmlTypeRef | undefined;
    const takeContent = (nodes: readonly SoapNode[], where: string): void => {
      for (const child of nodes) {
        if (child.name === 'attribute') attributes.push(this.attribute(child, `${where}/attribute(${child.$name})`));
        else if (child.name === 'sequence' || child.name === 'choice') content = this.particle(child, where);
        else if (child.name === 'attributeGroup') this.fail(where, 'attribute groups are not supported (the soap parser drops them); use a base type');
        else if (child.name !== 'annotation') this.fail(where, `xsd:${child.name} is not supported here`);
      }
    };
    for (const child of this.schema.complexTypes[name]!.children) {
      if (child.name === 'complexContent' || child.name === 'simpleContent') {
        const extension = child.children.find((c) => c.name === 'extension');
        if (!extension?.$base) this.fail(at, `only extensions are supported in xsd:${child.name}`);
        const parent = this.typeRef(extension.$base, `${at}/${child.name}`);
        if (child.name === 'complexContent') {
          if (parent.kind !== 'complex') this.fail(at, 'complex content must extend a complex type');
          base = parent.name;
        } else {
          if (parent.kind === 'complex') this.fail(at, 'simple content must extend a simple type');
          text = parent;
        }
        takeContent(extension.children, `${at}/extension`);
      } else {
        takeContent([child], at);
      }
    }
    return { name, attributes, ...(content ? { content } : {}), ...(base ? { base } : {}), ...(text ? { text } : {}) };
  }

  private attribute(node: SoapNode, at: string): XmlAttribute {
    if (!node.$name || !node.$type) return this.fail(at, 'attributes need a name and a type');
    const type = this.typeRef(node.$type, at);
    if (type.kind === 'complex') this.fail(at, 'attributes need a simple type');
    return { name: node.$name, type, required: node.$use === 'required', ...(node.$default !== undefined ? { default: node.$default } : {}) };
  }

  private particle(node: SoapNode, at: string): XmlParticle {
    const here = `${at}/${node.name}`;
    const { min, max } = occurs(node, here, this.file);
    if (node.name === 'any') return { kind: 'any', min, max };
    if (node.name === 'sequence' || node.name === 'choice') {
      const items = node.children.filter((c) => c.name !== 'annotation').map((c) => this.particle(c, here));
      return { kind: node.name, min, max, items };
    }
    if (node.name !== 'element') return this.fail(here, `xsd:${node.name} is not supported in a content model`);
    if (node.$ref) {
      const name = localName(node.$ref);
      const declared = this.schema.elements[name];
      if (!declared?.$type) return this.fail(`${here}(${node.$ref})`, 'refers to an element that is not declared with a named type');
      return { kind: 'element', name, type: this.typeRef(declared.$type, here), nillable: declared.$nillable === 'true', min, max };
    }
    if (!node.$name) return this.fail(here, 'an element needs a name or a ref');
    if (!node.$type) {
      if (node.children.some((c) => c.name === 'complexType' || c.name === 'simpleType')) this.fail(`${here}(${node.$name})`, 'anonymous types are not supported; name the type');
      return { kind: 'element', name: node.$name, type: { kind: 'builtin', name: 'anyType' }, nillable: node.$nillable === 'true', min, max };
    }
    return { kind: 'element', name: node.$name, type: this.typeRef(node.$type, `${here}(${node.$name})`), nillable: node.$nillable === 'true', min, max };
  }
}
