import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as codecs from '../../generated/soap/codecs.js';
import { parseXml, XmlSchemaError, XmlSyntaxError } from '../../generated/soap/runtime.js';
import { QueryError } from '../../server/query/errors.js';
import { parseQuery } from '../../server/query/parse.js';
import { startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { get, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Enough runs to explore each input space, few enough to keep the suite quick. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** Pieces of the query grammar, so generated queries reach deep into the parser and compiler. */
const queryPiece = fc.oneof(
  fc.constantFrom('name', 'location.institution', 'capacity', 'ts', 'ttl', 'id', 'hops.href', 'a.b.c', 'fields', 'limit', 'skip', 'sort', '__proto__', '$schema'),
  fc.constantFrom('=', '&', '|', ',', '.', ':', 'lt=', 'gte=', 'number:', 'integer:', 'boolean:', 'string:', '%', '%2C', '%7C', '%00', '+', "'", '"', ';', '--', '1', '-1', '1e9', 'true', '0'),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const queryString = fc.array(queryPiece, { maxLength: 24 }).map((parts) => parts.join(''));

describe('property-based fuzzing', function () {
  this.timeout(300_000);

  describe('query-language parser (in process)', () => {
    it('either parses or throws a QueryError naming a parameter', () => {
      fc.assert(
        fc.property(queryString, (query) => {
          try {
            parseQuery(query, 256);
          } catch (error) {
            assert.ok(error instanceof QueryError, `${query} threw ${String(error)}`);
            assert.equal(typeof error.parameter, 'string');
          }
        }),
        { numRuns: RUNS * 20 },
      );
    });
  });

  describe('REST over HTTP', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
      await request('POST', `${server.url}/ports`, { body: [{ id: 'f1', name: 'a', capacity: 5, hops: [{ href: 'http://x/1' }] }, { id: 'f2', name: 'b', location: { institution: 'IU' } }] });
    });
    after(async () => {
      await server.stop();
    });

    it('answers any query with 200 or 400, never a server error', async () => {
      await fc.assert(
        fc.asyncProperty(queryString, fc.boolean(), async (query, one) => {
          const answer = await fetch(`${server.url}/ports${one ? '/f1' : ''}?${query.replace(/[#\s]/g, '')}`).catch(() => undefined);
          // fetch itself refuses some URLs (invalid characters); those never reach the server.
          if (!answer) return;
          await answer.text();
          assert.ok([200, 400, 404].includes(answer.status), `?${query} → ${answer.status}`);
        }),
        { numRuns: RUNS },
      );
    });

    it('answers any JSON body with a documented status, never a server error', async () => {
      const body = fc.oneof(
        fc.json({ depthSize: 'medium' }),
        fc.anything({ withObjectString: true, withNullPrototype: true }).map((v) => JSON.stringify(v) ?? 'null'),
        fc.record({ name: fc.anything(), capacity: fc.anything(), endpoints: fc.anything(), directed: fc.anything(), id: fc.string() }).map((v) => JSON.stringify(v)),
        fc.string({ unit: 'binary', maxLength: 64 }),
      );
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom('ports', 'links', 'metadata', 'services'), fc.constantFrom('POST', 'PUT', 'PATCH'), async (text, collection, method) => {
          const url = `${server.url}/${collection}${method === 'POST' ? '' : '/f1'}`;
          const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
          const answer = await request(method, url, { raw: text, headers: { 'content-type': type } });
          assert.ok([200, 201, 400, 404, 409, 413].includes(answer.status), `${method} ${collection} ${text.slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 200)}`);
          if (answer.status >= 400) assert.equal(answer.body?.error?.status, answer.status);
        }),
        { numRuns: RUNS },
      );
      assert.equal((await get(`${server.url}/health`)).status, 200);
    });
  });

  describe('SOAP over HTTP', () => {
    const NS = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types';
    let catalog: CatalogServer;
    before(async () => {
      catalog = await startCatalog();
    });
    after(async () => {
      await catalog.stop();
    });

    const requestElements = ['checkStatusRequest', 'createUserRequest', 'createObjectRequest', 'moveObjectRequest', 'addPropertyRequest', 'deleteObjectRequest', 'contextQueryRequest', 'objectIdQueryRequest', 'allWorkspaceQueryRequest', 'updatePropertyRequest'];
    const childNames = ['errorDeliveryMethod', 'catalogUser', 'userId', 'catalogData', 'objectId', 'objectClass', 'parentId', 'catalogPropertyAdd', 'name', 'source', 'value', 'element', 'queryTarget', 'aggrType', 'queryResultFormat', 'offset', 'count', 'hierarchyFilter', 'contentFilter', 'resultDeliveryMethod', 'catalogProperty', 'updateProperty', 'position', 'lastUpdate'];
    const leaf = fc.oneof(fc.constantFrom('DIRECT', 'NONE', 'PROJECT', 'COLLECTION', 'x', '0', '-5', '999999999999', 'SUBTREE', 'FULL_SCHEMA', 'true', "'; DROP TABLE catalog_objects; --", '%_'), fc.string({ maxLength: 6 }).map((t) => t.replace(/[<&]/g, '')));
    const { node } = fc.letrec((tie) => ({
      node: fc.tuple(fc.constantFrom(...childNames), fc.array(fc.oneof({ depthSize: 'small' }, leaf, tie('node')), { maxLength: 3 })).map(([name, children]) => `<${name}>${children.join('')}</${name}>`),
    }));

    it('answers any request element with a response or a documented fault, always well-formed and XSD-valid', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...requestElements), fc.array(node as fc.Arbitrary<string>, { maxLength: 5 }), fc.constantFrom('/CN=fuzz', undefined), async (root, children, dn) => {
          const answer = await catalog.raw(`<${root} xmlns="${NS}">${children.join('')}</${root}>`, dn === undefined ? {} : { dn });
          assert.ok(answer.status === 200 || (answer.status === 500 && answer.faultCode === 'Client'), `${root}: ${answer.status} ${answer.text.slice(0, 300)}`);
          assert.doesNotMatch(answer.text, /\bat \S+ \(|node_modules|SQLITE|syntax error/);
        }),
        { numRuns: RUNS },
      );
      // Every response the fuzzing produced is valid against the XSD.
      await catalog.recorder.assertAllValid();
    });

    it('answers arbitrary bytes with a Client fault, never a server error', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 120 }), async (text) => {
          const answer = await catalog.raw('', { document: text });
          assert.ok([200, 500].includes(answer.status) && (answer.status === 200 || /Client|VersionMismatch/.test(answer.faultCode ?? '')), `${JSON.stringify(text)} → ${answer.status} ${answer.text.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('SOAP message readers (in process)', () => {
    const NS = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types';
    const names = ['queryTarget', 'aggrType', 'objectId', 'contextQuery', 'queryComponent', 'relation', 'queryOrSet', 'queryAndSet', 'queryProperty', 'name', 'source', 'queryElement', 'queryTextElement', 'value', 'compare', 'queryResultFormat', 'offset', 'count', 'hierarchyFilter', 'contentFilter', 'resultDeliveryMethod', 'errorDeliveryMethod', 'createDateStart'];
    const text = fc.oneof(fc.constantFrom('PROJECT', 'FILE', 'PARENT', 'CHILD', '0', '-1', 'DIRECT', 'TARGET', 'ID_ONLY', 'EXACT', 'true', '2008-02-11T00:00:00Z', ''), fc.string({ maxLength: 8 }));
    const attribute = fc.option(fc.constantFrom(' negate="true"', ' negate="x"', ' xsi:nil="true"', ' description="d"', ' unknown="1"'), { nil: '' });
    const { element } = fc.letrec((tie) => ({
      element: fc.tuple(fc.constantFrom(...names), attribute, fc.array(fc.oneof({ depthSize: 'small' }, text.map((t) => t.replace(/[<&]/g, '')), tie('element')), { maxLength: 4 })).map(
        ([name, attrs, children]) => `<${name}${attrs}>${children.join('')}</${name}>`,
      ),
    }));
    it('either read a request or throw an XmlSchemaError naming an element', () => {
      fc.assert(
        fc.property(fc.array(element as fc.Arbitrary<string>, { maxLength: 4 }), (children) => {
          const xml = `<contextQueryRequest xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${children.join('')}</contextQueryRequest>`;
          try {
            codecs.readContextQueryRequestElement(parseXml(xml));
          } catch (error) {
            assert.ok(error instanceof XmlSchemaError || error instanceof XmlSyntaxError, `${xml} threw ${String(error)}`);
            if (error instanceof XmlSchemaError) assert.match(error.path, /^\/contextQueryRequest/);
          }
        }),
        { numRuns: RUNS * 10 },
      );
    });

    it('never throw anything but XmlSyntaxError on arbitrary text', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => {
          try {
            parseXml(source);
          } catch (error) {
            assert.ok(error instanceof XmlSyntaxError, `${JSON.stringify(source)} threw ${String(error)}`);
          }
        }),
        { numRuns: RUNS * 10 },
      );
    });
  });
});
