import type { Router } from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { SERVICE, type Dispatcher } from '../../generated/soap/service.js';
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

function sendFault(ctx: Context, fault: SoapFault, status = 500): void {
  ctx.status = status;
  ctx.set('Content-Type', XML_TYPE);
  ctx.body = faultEnvelope(fault);
}

/** The request's XML text, or a fault explaining why there is none. */
async function readEnvelopeText(ctx: Context, limits: Limits): Promise<string> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'application/soap+xml') throw new SoapFault('VersionMismatch', 'SOAP 1.2 (application/soap+xml) is not supported; send SOAP 1.1 as text/xml');
  if (type !== 'text/xml') throw Object.assign(new SoapFault('Client', 'a SOAP 1.1 request needs Content-Type: text/xml'), { status: 415 });
  const charset = /charset="?([^";]+)"?/i.exec(ctx.get('content-type'))?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw Object.assign(new SoapFault('Client', `charset ${charset} is not supported; send UTF-8`), { status: 415 });
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: limits.bodyBytes, length: ctx.get('content-length') || undefined });
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

/**
 * The SOAP 1.1 endpoint: `POST {path}` with an envelope, `GET {path}?wsdl` and
 * `GET {path}?xsd=<name>`. Faults only for what is not a usable request of this service
 * (malformed XML, a DTD, the wrong SOAP version, an unknown body element, an unknown
 * mustUnderstand header); every operation outcome, errors included, is the operation's response.
 */
export function mountSoapEndpoint(router: Router, { path, description, dispatcher, limits, logger, open, adminDns }: SoapEndpointOptions): void {
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

  router.post(path, async (ctx) => {
    try {
      const text = await readEnvelopeText(ctx, limits);
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
      const operation = dispatcher.operationOf(body);
      if (!operation) throw new SoapFault('Client', `unknown body element {${body.namespace}}${body.name}`);
      ctx.state.operation = operation;
      const access = catalogAccess({
        operation,
        headerDn: callerDn(headers),
        open,
        principal: ctx.state.principal as Principal | undefined,
        credentialProblem: ctx.state.credentialProblem as string | undefined,
        adminDns,
      });
      if (!access.granted) {
        ctx.set('WWW-Authenticate', 'Bearer realm="topocat"');
        return sendFault(ctx, new SoapFault('Client', access.reason), 401);
      }
      const response = await dispatcher.dispatch(body, { dn: access.dn, admin: access.admin, requestId: ctx.state.requestId as string });
      ctx.set('Content-Type', XML_TYPE);
      ctx.body = envelope(response);
    } catch (error) {
      if (error instanceof SoapFault) return sendFault(ctx, error, (error as SoapFault & { status?: number }).status ?? 500);
      logger.error({ err: error, requestId: ctx.state.requestId }, 'SOAP request failed');
      sendFault(ctx, new SoapFault('Server', `internal error; request id ${String(ctx.state.requestId)}`));
    }
  });
}
