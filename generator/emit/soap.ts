import type { Model, Operation } from '../model/model.js';
import type { SoapService } from '../model/xml.js';
import { tsHeader, type GeneratedFile } from './output.js';
import { emitSoapCodecs } from './soap-codecs/index.js';
import { pascalName } from './soap-shape.js';
import { emitSoapTypes } from './soap-types.js';
import { runtimeModule } from './runtime.js';
import { render } from './templates.js';

/** The SOAP operations of the model with the names their generated code uses. */
export function soapOperations(model: Model): { name: string; action: string; requestElement: string; responseElement: string; requestType: string; responseType: string }[] {
  return model.operations
    .filter((op): op is Operation & { soap: NonNullable<Operation['soap']> } => op.soap !== undefined)
    .map((op) => ({
      name: op.name,
      action: op.soap.action,
      requestElement: op.soap.requestElement,
      responseElement: op.soap.responseElement,
      requestType: pascalName(op.soap.requestElement),
      responseType: pascalName(op.soap.responseElement),
    }));
}

/** Type names of the message elements, each once, for import lines. */
function typeImports(model: Model): string[] {
  return [...new Set(soapOperations(model).flatMap((op) => [op.requestType, op.responseType]))];
}

/** Message elements of every operation, requests and responses, each once, in operation order. */
function messageElements(model: Model): string[] {
  return [...new Set(soapOperations(model).flatMap((op) => [op.requestElement, op.responseElement]))];
}

/**
 * The server side of the SOAP interface: the shared runtime, the message types, their codecs,
 * and the service interface with a dispatcher keyed by the body element's name.
 */
export function emitSoap(model: Model): GeneratedFile[] {
  const service: SoapService | undefined = model.soap;
  if (!service) return [];
  const elements = messageElements(model);
  return [
    { path: 'soap/runtime.ts', content: runtimeModule('soap-runtime', 'soap') },
    emitSoapTypes(service, elements),
    emitSoapCodecs(service, elements),
    {
      path: 'soap/service.ts',
      content: render('soap-service.ts', { header: tsHeader(service.files), service, wsdlFile: service.wsdlFile, operations: soapOperations(model), typeImports: typeImports(model) }),
    },
  ];
}

/** The typed SOAP client SDK. */
export function emitSoapClient(model: Model): GeneratedFile[] {
  if (!model.soap) return [];
  return [
    {
      path: 'client/soap.ts',
      content: render('client-soap.ts', { header: tsHeader(model.soap.files), service: model.soap, operations: soapOperations(model), typeImports: typeImports(model) }),
    },
  ];
}
