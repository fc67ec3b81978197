import type { Router } from '@koa/router';
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { SERVICE, type CatalogServiceOperation, type Dispatcher } from '../../generated/soap/service.js';
import { faultEnvelope, openEnvelope, parseXml, SoapFault, XmlSyntaxError, envelope } from '../../generated/soap/runtime.js';
import type { Principal } from '../auth.js';
import type { CatalogCall } from '../catalog/context.js';
import type { Limits } from '../config.js';
import type { Logger } from '../log.js';
import { catalogAccess } from './access.js';
import type { ServiceDescription } from './description.js';
import { domainAsTypes, XMCCAT_DOMAIN_NAMESPACE } from './domain-namespace.js';
import { callerDn, isUnderstood } from './identity.js';

export interface SoapEndpointOptions {
  readonly path: string;
  readonly description: ServiceDescription;
  readonly dispatcher: Dispatcher<CatalogCall>;
  readonly limits: Limits;
  readonly logger: Logger;
  /** True when no tokens are configured (soap/access.ts). */
  readonly open: boolean;
  /** CATALOG_ADMIN_DNS. */
  readonly adminDns: readonly string[];
}

const XML_TYPE = 'text/xml; charset=utf-8';
const SOAP11_MUST_UNDERSTAND = '{http://schemas.xmlsoap.org/soap/envelope/}mustUnderstand';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The request's XML text, or a fault explaining why there is none. */
async function readEnvelopeText(req: IncomingMessage, limits: Limits): Promise<string> {
  const contentType = req.headers['content-type'] ?? '';
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'application/soap+xml') throw new SoapFault('VersionMismatch', 'SOAP 1.2 (application/soap+xml) is not supported; send SOAP 1.1 as text/xml');
  if (type !== 'text/xml') throw Object.assign(new SoapFault('Client', 'a SOAP 1.1 request needs Content-Type: text/xml'), { status: 415 });
  const charset = /charset="?([^";]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw Object.assign(new SoapFault('Client', `charset ${charset} is not supported; send UTF-8`), { status: 415 });
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(req, { limit: limits.bodyBytes, length: req.headers['content-length'] || undefined });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw Object.assign(new SoapFault('Client', `request larger than ${limits.bodyBytes} bytes`), { status: 413 });
    }
    throw new SoapFault('Client', 'the request body could not be read');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new SoapFault('Client', 'the request is not valid UTF-8');
  }
}

/** What a POST of an envelope is answered with (always text/xml). */
export interface SoapAnswer {
  readonly status: number;
  readonly body: string;
  /** The operation of the request's body element, once it is known. */
  readonly operation?: string;
  /** True for a 401: the response carries `WWW-Authenticate`. */
  readonly challenge?: boolean;
}

/** Who sent the envelope, as the authentication hook saw the request. */
export interface SoapCaller {
  readonly principal: Principal | undefined;
  /** Why the presented credential was refused, if it was. */
  readonly credentialProblem: string | undefined;
  readonly requestId: string;
}

/** The value of `WWW-Authenticate` on a refused call. */
export const SOAP_CHALLENGE = 'Bearer realm="topocat"';
export const SOAP_CONTENT_TYPE = XML_TYPE;

function faultAnswer(fault: SoapFault, status: number, operation?: string): SoapAnswer {
  return { status, body: faultEnvelope(fault), ...(operation !== undefined ? { operation } : {}) };
}

/**
 * A POST of an envelope, answered without Koa: Koa's route below and the direct path before Koa
 * (soap/direct.ts) both call it. Faults only for what is not a usable request of this service
 * (malformed XML, a DTD, the wrong SOAP version, an unknown body element, an unknown
 * mustUnderstand header); every operation outcome, errors included, is the operation's response.
 */
export function soapExchange({ dispatcher, limits, logger, open, adminDns }: Omit<SoapEndpointOptions, 'path' | 'description'>): (req: IncomingMessage, caller: SoapCaller) => Promise<SoapAnswer> {
  return async (req, caller) => {
    let operation: string | undefined;
    try {
      const text = await readEnvelopeText(req, limits);
      let root;
      try {
        root = parseXml(text, { maxDepth: limits.xmlDepth, maxElements: limits.xmlElements });
      } catch (error) {
        if (error instanceof XmlSyntaxError) throw new SoapFault('Client', `the request is not acceptable XML: ${error.message}`);
        throw error;
      }
      const { headers, body: sent } = openEnvelope(root);
      // Clients of XMC Cat's published WSDL send property contents in its domain namespace.
      const body = sent && text.includes(XMCCAT_DOMAIN_NAMESPACE) ? domainAsTypes(sent, SERVICE.messageNamespace) : sent;
      for (const header of headers) {
        const must = header.attributes.get(SOAP11_MUST_UNDERSTAND);
        if ((must === '1' || must === 'true') && !isUnderstood(header)) {
          throw new SoapFault('MustUnderstand', `header {${header.namespace}}${header.name} is not understood`);
        }
      }
      if (!body) throw new SoapFault('Client', 'the Body is empty');
      operation = dispatcher.operationOf(body);
      if (!operation) throw new SoapFault('Client', `unknown body element {${body.namespace}}${body.name}`);
      const access = catalogAccess({
        operation: operation as CatalogServiceOperation,
        headerDn: callerDn(headers),
        open,
        principal: caller.principal,
        credentialProblem: caller.credentialProblem,
        adminDns,
      });
      if (!access.granted) return { ...faultAnswer(new SoapFault('Client', access.reason), 401, operation), challenge: true };
      const response = await dispatcher.dispatch(body, { dn: access.dn, admin: access.admin, requestId: caller.requestId });
      return { status: 200, body: envelope(response), operation };
    } catch (error) {
      if (error instanceof SoapFault) return faultAnswer(error, (error as SoapFault & { status?: number }).status ?? 500, operation);
      logger.error({ err: error, requestId: caller.requestId }, 'SOAP request failed');
      return faultAnswer(new SoapFault('Server', `internal error; request id ${caller.requestId}`), 500, operation);
    }
  };
}

/**
 * The SOAP 1.1 endpoint in Koa: `POST {path}` with an envelope (see soapExchange), `GET
 * {path}?wsdl` and `GET {path}?xsd=<name>`.
 */
export function mountSoapEndpoint(router: Router, options: SoapEndpointOptions): void {
  const { path, description } = options;
  router.get(path, (ctx) => {
    if ('wsdl' in ctx.query) {
      ctx.set('Content-Type', XML_TYPE);
      ctx.body = description.wsdl;
      return;
    }
    const name = ctx.query.xsd;
    const schema = typeof name === 'string' ? description.schemas.get(name) : undefined;
    if (schema !== undefined) {
      ctx.set('Content-Type', XML_TYPE);
      ctx.body = schema;
      return;
    }
    ctx.status = 404;
  });

  const exchange = soapExchange(options);
  router.post(path, async (ctx) => {
    const answer = await exchange(ctx.req, {
      principal: ctx.state.principal,
      credentialProblem: ctx.state.credentialProblem,
      requestId: ctx.state.requestId,
    });
    if (answer.operation !== undefined) ctx.state.operation = answer.operation;
    if (answer.challenge) ctx.set('WWW-Authenticate', SOAP_CHALLENGE);
    ctx.status = answer.status;
    ctx.set('Content-Type', XML_TYPE);
    ctx.body = answer.body;
  });
}
