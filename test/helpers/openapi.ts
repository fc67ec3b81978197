import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { projectRoot } from './paths.js';

type Json = Record<string, any>;

/** One openapi.json, ready to check answers: its paths as patterns and a validator per schema. */
class Description {
  readonly document: Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** Literal paths first, so a template never shadows one. */
  readonly templates: { template: string; pattern: RegExp }[];

  constructor(file: string) {
    this.document = JSON.parse(readFileSync(file, 'utf8')) as Json;
    addFormats.default(this.ajv);
    this.ajv.addSchema(this.document, 'openapi');
    this.templates = Object.keys(this.document.paths as Json)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  }

  resolve(object: Json): Json {
    let current = object;
    while (typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce((value: Json, token: string) => value[token.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    }
    return current;
  }

  validatorAt(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  errorsText(validate: ValidateFunction): string {
    return this.ajv.errorsText(validate.errors);
  }
}

const ownDescription = new Description(path.join(projectRoot, 'generated/openapi.json'));
/** The description the project's server serves, as generated. */
export const openapi = ownDescription.document;
/** What the project's server serves as a lookup (LOOKUP=true): its reads may answer a Redirect. */
let lookupDescription: Description | undefined;
const byOrigin = new Map<string, Description>();

/**
 * The description a started server is checked against: its project's (a copy's, for another
 * schema set), the lookup's when it is a lookup. Said at every start, since a port can be reused.
 */
export function describeServer(url: string, projectDir: string, lookup = false): void {
  const file = lookup ? 'generated/openapi-lookup.json' : 'generated/openapi.json';
  const description =
    projectDir === projectRoot
      ? lookup
        ? (lookupDescription ??= new Description(path.join(projectRoot, file)))
        : ownDescription
      : new Description(path.join(projectDir, file));
  byOrigin.set(new URL(url).origin, description);
}

const escapePointer = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Paths outside the REST description: the SOAP catalog (its WSDL describes it) and the WebSocket subscriptions (docs/subscriptions.md). */
const ELSEWHERE = /^\/(catalog|subscribe)(\/|$)/;

export interface Observed {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The X-Request-Id header: every answer of the service has one; Node's own (431) do not. */
  readonly requestId: string | null;
  readonly text: string;
  /** The request's `Accept` (absent or null: none sent), for the answers `Accept` chooses. */
  readonly accept?: string | null;
}

/**
 * Check one answer of the server against openapi.json: the operation's response for the status
 * is described, the body's media type is one it lists, and the body matches its schema. Answers
 * to methods or paths the description does not have must be the error body. Throws a readable
 * error otherwise.
 */
export function checkAnswer(observed: Observed): void {
  const { pathname, origin } = new URL(observed.url);
  // OPTIONS answers (Allow, CORS preflights) are HTTP's own, not operations of the description.
  if (ELSEWHERE.test(pathname) || observed.requestId === null || observed.method.toUpperCase() === 'OPTIONS') return;
  const description = byOrigin.get(origin) ?? ownDescription;
  const routed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const match = description.templates.find((t) => t.pattern.test(routed));
  const method = observed.method.toLowerCase();
  const operation = match ? ((description.document.paths as Json)[match.template] as Json)[method] as Json | undefined : undefined;
  const where = `${observed.method} ${pathname} → ${observed.status}`;
  if (!operation) {
    // Not an operation of the description: only the error body may answer (404, 405, 501).
    if (observed.status < 400) throw new Error(`openapi.json does not describe ${observed.method} ${match?.template ?? pathname}, yet it answered ${where}`);
    if (method !== 'head') checkBody(description, where, '#/components/schemas/ErrorBody', observed);
    return;
  }
  const responses = operation.responses as Json;
  const described = responses[observed.status] ?? responses[`${String(observed.status)[0]}XX`] ?? responses.default;
  if (!described) throw new Error(`openapi.json has no ${observed.status} response for ${operation.operationId} (${where}); it describes ${Object.keys(responses).join(', ')}`);
  const response = description.resolve(described);
  if (method === 'head' || observed.status === 204 || observed.status === 304) return;
  const media = (observed.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const content = response.content as Json | undefined;
  const responsePointer = typeof described.$ref === 'string' ? (described.$ref as string).slice(1) : `/paths/${escapePointer(match!.template)}/${method}/responses/${observed.status}`;
  // The answers the request chooses (generator/emit/openapi/operations.ts, `x-topocat-answers`):
  // those whose `when` this request meets are checked besides the response's own schema.
  const chosen = answersChosen(description, operation, (response[ANSWERS] ?? []) as Answer[], observed);
  if (!content) {
    if (observed.text !== '') throw new Error(`${where}: openapi.json describes no body, the server sent ${observed.contentType}`);
    return;
  }
  const streamed = chosen.find((answer) => answer.media === media);
  if (!(media in content) && !streamed) throw new Error(`${where}: media type "${media}" is not among ${[...Object.keys(content), ...chosen.flatMap((a) => a.media ?? [])].join(', ')}`);
  if (!/json/.test(media)) return;
  const pointers = [
    ...(media in content ? [`#${responsePointer}/content/${escapePointer(media)}/schema`] : []),
    ...chosen.flatMap(({ index, media: own }) => (own === undefined || own === media ? [`#${responsePointer}/${ANSWERS}/${index}/schema`] : [])),
  ];
  checkBody(description, where, pointers, observed);
}

const ANSWERS = 'x-topocat-answers';
interface Answer {
  readonly when: { readonly query?: readonly string[]; readonly accept?: string };
  readonly media?: string;
  readonly schema: Json;
}

/** A request in UNIS form: its `Accept` names neither of the typed JSON media types. */
const unisForm = (accept: string | null | undefined): boolean => !/application\/(topology\+)?json/i.test(accept ?? '');

/**
 * The listed answers this request chooses, with their index in the list: by a query parameter
 * it gives (a query name the operation does not declare is a condition: `conditions`), or by
 * its `Accept`.
 */
function answersChosen(description: Description, operation: Json, answers: Answer[], observed: Observed): (Answer & { index: number })[] {
  const declared = new Set(((operation.parameters ?? []) as Json[]).map((p) => description.resolve(p)).filter((p) => p.in === 'query').map((p) => p.name as string));
  const given = new Set([...new URL(observed.url).searchParams.keys()].map((name) => (declared.has(name) ? name : 'conditions')));
  return answers
    .map((answer, index) => ({ ...answer, index }))
    .filter(({ when }) =>
      when.query !== undefined
        ? when.query.some((name) => given.has(name))
        : when.accept === 'unis'
          ? unisForm(observed.accept)
          : when.accept !== undefined && (observed.accept ?? '').toLowerCase().includes(when.accept),
    );
}

/** The body matches one of the schemas at `pointers` (the first one's errors otherwise). */
function checkBody(description: Description, where: string, pointers: string | string[], observed: Observed): void {
  let body: unknown;
  try {
    body = JSON.parse(observed.text);
  } catch {
    throw new Error(`${where}: the body is not JSON: ${observed.text.slice(0, 200)}`);
  }
  const all = typeof pointers === 'string' ? [pointers] : pointers;
  const validators = all.map((pointer) => description.validatorAt(pointer.slice(1)));
  if (!validators.some((validate) => validate(body))) {
    const errors = validators.map((validate, i) => `${all[i]}: ${description.errorsText(validate)}`).join('; ');
    throw new Error(`${where}: the body does not match openapi.json ${errors}\n${observed.text.slice(0, 500)}`);
  }
}

/** A fetch that checks every answer against openapi.json (for the SDK clients under test). */
export const conformingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const text = await response.clone().text();
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const accept = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('accept');
  checkAnswer({ method: init?.method ?? 'GET', url, status: response.status, contentType: response.headers.get('content-type'), requestId: response.headers.get('x-request-id'), text, accept });
  return response;
};
