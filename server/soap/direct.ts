import type { IncomingMessage, ServerResponse } from 'node:http';
import { CredentialsRejected, type Authenticator, type Principal } from '../auth.js';
import type { Access } from '../http/access-line.js';
import { closedStatus, requestIdOf } from '../http/request-context.js';
import { SOAP_CHALLENGE, SOAP_CONTENT_TYPE, type SoapAnswer, type SoapCaller } from './endpoint.js';

export interface DirectSoapOptions {
  /** Where the catalog is served (config.catalog.path). */
  readonly path: string;
  /** The endpoint's exchange (soap/endpoint.ts soapExchange), which Koa's route calls too. */
  readonly exchange: (req: IncomingMessage, caller: SoapCaller) => Promise<SoapAnswer>;
  readonly authenticator: Authenticator;
  readonly access: (access: Access) => void;
}

/**
 * `POST {path}` answered before Koa sees it: every SOAP call, with the status, headers, body
 * and access line the Koa route gives it (the same exchange; a test compares the two). Anything
 * else (a query string, another method, `?wsdl`) goes on to Koa. Only without CORS, whose
 * headers Koa's policy adds (app.ts).
 *
 * Why: through Koa, checkStatus cost 84 µs of CPU against node-soap's 75 µs answering from
 * memory (`npm run bench -- --only catalog`); Koa's context, its four middleware, the two
 * routers and the promises between them were a fifth of it (--cpu-prof at 1,500 calls/s).
 * Returns false when the request is not one it answers.
 */
export function directSoap({ path, exchange, authenticator, access }: DirectSoapOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== path) return false;
    const started = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    const caller = identify(authenticator, req.headers.authorization, requestId);
    void exchange(req, caller).then((answer) => {
      const headers = ['X-Request-Id', requestId];
      if (answer.challenge) headers.push('WWW-Authenticate', SOAP_CHALLENGE);
      headers.push('Content-Type', SOAP_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(answer.body)));
      res.writeHead(answer.status, headers);
      res.end(answer.body);
      res.once('close', () =>
        access({
          requestId,
          method: 'POST',
          path,
          status: closedStatus(res, answer.status),
          operation: answer.operation,
          ms: Math.round((performance.now() - started) * 100) / 100,
        }),
      );
    });
    return true;
  };
}

/** The caller as the authentication hook (auth.ts) sees it: a principal, or why the credential was refused. */
function identify(authenticator: Authenticator, authorization: string | undefined, requestId: string): SoapCaller {
  let principal: Principal | undefined;
  let credentialProblem: string | undefined;
  try {
    principal = authenticator.authenticate(authorization === undefined || authorization === '' ? undefined : authorization);
  } catch (error) {
    if (!(error instanceof CredentialsRejected)) throw error;
    credentialProblem = error.message;
  }
  return { principal, credentialProblem, requestId };
}
