import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import soap from 'soap';
import { parseXml, type XmlNode } from '../../generated/soap/runtime.js';
import { soapActions } from '../../generated/soap/service.js';
import { DIRECT, startCatalog, USERNAME_NS, type CatalogServer } from '../helpers/catalog.js';
import { projectRoot } from '../helpers/server.js';

/**
 * XMC Cat's own published WSDL and schemas (the DataCatalog-Dashboard copy), kept outside the
 * repository in the steering folder's reference data (../shared/reference/xmccat, or
 * XMCCAT_REFERENCE_DIR). They are not the project's to commit, so without them the suite is
 * skipped, except under CI=true, where their absence fails it.
 */
const REFERENCE = process.env.XMCCAT_REFERENCE_DIR ?? path.join(projectRoot, '..', 'shared', 'reference', 'xmccat');
const PUBLISHED_WSDL = path.join(REFERENCE, 'CatalogService.wsdl');
const XSD = 'http://www.w3.org/2001/XMLSchema';
const DOMAIN = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/domain';

const DN = 'CN=Published Client,O=Example';
const STREAMING = 'STREAMING';

type Parsed = Record<string, any>;
const list = (value: unknown): Parsed[] => (value === undefined ? [] : Array.isArray(value) ? value : [value as Parsed]);

/**
 * The wire an XML Schema describes for one element, as text: element names in order with their
 * cardinalities and nillability, attributes with use and default, simple types by name, complex
 * types expanded (named or anonymous alike, extensions flattened). The domain namespace, which
 * XMC Cat never published, reads as `domain`.
 */
class WireShape {
  private readonly globals = new Map<string, XmlNode>();

  constructor(schema: XmlNode) {
    for (const child of schema.children) if (child.attributes.has('name')) this.globals.set(`${child.name}:${child.attributes.get('name')}`, child);
  }

  static load(file: string): WireShape {
    const root = parseXml(readFileSync(file, 'utf8'));
    // The published types include CatalogService1.xsd (the status types) beside them.
    const included = root.children.filter((c) => c.name === 'include').map((c) => parseXml(readFileSync(path.join(path.dirname(file), c.attributes.get('schemaLocation')!), 'utf8')));
    const merged: XmlNode = { ...root, children: [...root.children, ...included.flatMap((s) => s.children)] };
    return new WireShape(merged);
  }

  /** Both files bind xsd: to XML Schema, and XMC Cat's binds cat: to its domain namespace. */
  private namespaceOf(qname: string): [string, string] {
    const [prefix, local] = qname.includes(':') ? qname.split(':') : ['', qname];
    return [prefix === 'xsd' ? XSD : prefix === 'cat' ? DOMAIN : 'types', local!];
  }

  element(name: string, depth = 0): string {
    const declaration = this.globals.get(`element:${name}`);
    assert.ok(declaration, `no global element ${name}`);
    return this.declared(declaration, depth);
  }

  private declared(node: XmlNode, depth: number): string {
    const occurs = `[${node.attributes.get('minOccurs') ?? '1'}..${node.attributes.get('maxOccurs') ?? '1'}]`;
    const ref = node.attributes.get('ref');
    if (ref) {
      const [ns, local] = this.namespaceOf(ref);
      if (ns === DOMAIN) return `${local}${occurs}:domain`;
      const target = this.globals.get(`element:${local}`)!;
      return `${local}${occurs}${target.attributes.get('nillable') === 'true' ? '?' : ''}:${this.typeOf(target, depth)}`;
    }
    return `${node.attributes.get('name')}${occurs}${node.attributes.get('nillable') === 'true' ? '?' : ''}:${this.typeOf(node, depth)}`;
  }

  private typeOf(node: XmlNode, depth: number): string {
    const type = node.attributes.get('type');
    const inline = node.children.find((c) => c.name === 'complexType');
    if (!type) return inline ? this.complex(inline, depth) : 'anyType';
    const [ns, local] = this.namespaceOf(type);
    if (ns === XSD) return local;
    if (ns === DOMAIN) return 'domain';
    if (this.globals.has(`simpleType:${local}`)) return local;
    return this.complex(this.globals.get(`complexType:${local}`)!, depth);
  }

  /** Content and attributes of a complex type, three levels deep (the types recurse). */
  private complex(type: XmlNode, depth: number): string {
    if (depth >= 3) return '…';
    const parts: string[] = [];
    const attributes: string[] = [];
    const walk = (nodes: readonly XmlNode[]): void => {
      for (const child of nodes) {
        if (child.name === 'attribute') attributes.push(`@${child.attributes.get('name')}(${child.attributes.get('use') ?? 'optional'}${child.attributes.has('default') ? `=${child.attributes.get('default')}` : ''})`);
        else if (child.name === 'sequence' || child.name === 'choice') parts.push(this.particle(child, depth));
        else if (child.name === 'complexContent' || child.name === 'simpleContent') {
          const extension = child.children.find((c) => c.name === 'extension')!;
          const [ns, local] = this.namespaceOf(extension.attributes.get('base')!);
          if (ns === XSD || this.globals.has(`simpleType:${local}`)) parts.push(`text:${local}`);
          else if (ns === DOMAIN) parts.push('domain');
          else walk((this.globals.get(`complexType:${local}`) ?? assert.fail(`no complexType ${local} (${ns})`)).children);
          walk(extension.children);
        }
      }
    };
    walk(type.children);
    return `{${[...attributes.sort(), ...parts].join(' ')}}`;
  }

  private particle(node: XmlNode, depth: number): string {
    const occurs = `[${node.attributes.get('minOccurs') ?? '1'}..${node.attributes.get('maxOccurs') ?? '1'}]`;
    if (node.name === 'element') return this.declared(node, depth + 1);
    if (node.name === 'any') return `any${occurs}`;
    const items = node.children.filter((c) => c.name !== 'annotation');
    // A sequence of one group, once, is that group on the wire.
    if (node.name === 'sequence' && occurs === '[1..1]' && items.length === 1 && items[0]!.name !== 'element') return this.particle(items[0]!, depth);
    return `${node.name}${occurs}(${node.children.filter((c) => c.name !== 'annotation').map((c) => this.particle(c, depth)).join(', ')})`;
  }
}

/** Request and response element of each operation in a WSDL (soap's own reading of it). */
async function messages(wsdl: string): Promise<Record<string, [string, string]>> {
  const client = await soap.createClientAsync(wsdl);
  const definitions = (client as unknown as { wsdl: { definitions: { bindings: Record<string, { methods: Record<string, { input: { $name: string }; output: { $name: string } }> }> } } }).wsdl.definitions;
  const [binding] = Object.values(definitions.bindings);
  return Object.fromEntries(Object.entries(binding!.methods).map(([name, m]) => [name, [m.input.$name, m.output.$name]]));
}

describe("XMC Cat's published WSDL", function () {
  before(function () {
    if (existsSync(PUBLISHED_WSDL)) return;
    if (process.env.CI === 'true') throw new Error(`XMC Cat's published WSDL is missing at ${PUBLISHED_WSDL}`);
    console.warn(`    skipped: no ${PUBLISHED_WSDL} (set XMCCAT_REFERENCE_DIR)`);
    this.skip();
  });

  it('and wsdl/ describe the same wire for all 24 operations: elements, order, cardinalities, attributes', async () => {
    const published = await messages(PUBLISHED_WSDL);
    const ours = await messages(path.join(projectRoot, 'wsdl/catalog.wsdl'));
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(published).sort());
    assert.equal(Object.keys(ours).length, 24);
    assert.deepEqual(Object.keys(soapActions).sort(), Object.keys(published).sort());
    const theirs = WireShape.load(path.join(REFERENCE, 'CatalogService.xsd'));
    const mine = WireShape.load(path.join(projectRoot, 'wsdl/catalog-types.xsd'));
    // Result nodes: topocat adds parentId and sends hasChildren only when asked (no default);
    // the domain schema's elements are topocat's own (docs/catalog-interface.md).
    const documented = (shape: string) =>
      shape
        .replace(/@parentId\(optional\) /g, '')
        .replace(/:catalogAggregationType\b/g, ':domain')
        .replace(/@hasChildren\(optional=false\)/g, '@hasChildren(optional)')
        .replace(/(catalogData|catalogPropertyAdd|catalogPropertyUpdate|objectResponse|propertyResponse)(\[[^\]]*\]):(\{[^{}]*(\{[^{}]*(\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}|domain)/g, '$1$2:domain')
        .replace(/objectSetResponse\[0\.\.1\]:\{[^{}]*\}/g, 'objectSetResponse[0..1]:domain');
    for (const [operation, [request, response]] of Object.entries(published)) {
      for (const element of [request, response]) {
        assert.equal(documented(mine.element(element)), documented(theirs.element(element)), `${operation}: <${element}>`);
      }
    }
  });

  describe('a client generated from it by node-soap calls every operation', function () {
    let catalog: CatalogServer;
    let call: (operation: string, args: object) => Promise<Parsed>;
    const called = new Set<string>();

    before(async () => {
      catalog = await startCatalog();
      const client = await soap.createClientAsync(PUBLISHED_WSDL);
      // XMC Cat's address; this one is the server under test.
      client.setEndpoint(catalog.url);
      client.addSoapHeader(`<Username xmlns="${USERNAME_NS}">${DN}</Username>`);
      client.on('response', (body: string) => catalog.recorder.record(body, 'published'));
      call = async (operation, args) => {
        called.add(operation);
        const [result] = await (client as unknown as Record<string, (a: object) => Promise<[Parsed]>>)[`${operation}Async`]!(args);
        return result;
      };
    });
    after(async () => {
      await catalog?.stop();
    });

    const ok = (result: Parsed) => assert.equal(result.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL', JSON.stringify(result));
    const resultFormat = (extra: object = {}) => ({ offset: 0, count: 0, hierarchyFilter: 'TARGET', contentFilter: 'ID_ONLY', resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT, ...extra });
    const objectIds = (result: Parsed) => list(result.queryResponseSet?.guidResponse).map((n) => n.attributes.objectId as string);

    it('users, objects and properties', async () => {
      ok(await call('checkStatus', { errorDeliveryMethod: DIRECT }));
      ok(await call('createUser', { catalogUser: [{ userId: DN, userName: 'Published' }], errorDeliveryMethod: DIRECT }));
      assert.equal((await call('doesUserExist', { errorDeliveryMethod: DIRECT })).userExists, true);
      const whiteboard = (await call('whiteboardId', { errorDeliveryMethod: DIRECT })).objectId as string;
      ok(await call('updateUser', { userId: DN, catalogUser: [{ userId: DN, email: 'published@example.org' }], errorDeliveryMethod: DIRECT }));
      assert.equal(list((await call('queryUser', { userId: DN, errorDeliveryMethod: DIRECT })).catalogUser)[0]!.email, 'published@example.org');
      ok(
        await call('createObject', {
          catalogData: [
            { objectId: 'pub/p', objectClass: 'PROJECT' },
            { objectId: 'pub/e1', objectClass: 'EXPERIMENT', parentId: 'pub/p' },
            { objectId: 'pub/e2', objectClass: 'EXPERIMENT', parentId: 'pub/p' },
            { objectId: 'pub/c', objectClass: 'COLLECTION', parentId: 'pub/e1', catalogPropertyAdd: [{ name: 'grid', source: 'LEAD', element: [{ name: 'dx', value: '3' }] }] },
          ],
          errorDeliveryMethod: DIRECT,
        }),
      );
      assert.equal((await call('objectExists', { objectId: 'pub/c', errorDeliveryMethod: DIRECT })).objectExists, true);
      ok(await call('assignObject', { objectId: 'pub/c', parentId: 'pub/e2', errorDeliveryMethod: DIRECT }));
      const children = await call('objectIdQuery', { objectId: ['pub/e1', 'pub/e2'], queryResultFormat: resultFormat({ hierarchyFilter: 'CHILDREN' }) });
      assert.deepEqual(list(children.queryResponseSet.guidResponse).map((n) => list(n.guidResponse).map((c) => c.attributes.objectId)), [['pub/c'], ['pub/c']]);
      ok(await call('addProperty', { catalogProperty: [{ objectId: 'pub/c', catalogPropertyAdd: [{ name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'one' }] }] }], errorDeliveryMethod: DIRECT }));
      const last = await call('lastUpdate', { objectId: 'pub/c', errorDeliveryMethod: DIRECT });
      ok(last);
      assert.match(String(last.lastUpdated), /^\d{13}$/);
      ok(await call('updateProperty', { updateProperty: { objectId: 'pub/c', catalogPropertyUpdate: { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'ONE' }] }, lastUpdate: Number(last.lastUpdated) }, errorDeliveryMethod: DIRECT }));
      ok(await call('deleteProperty', { deleteProperty: { objectId: 'pub/c', propertyName: 'citation', propertySource: 'LEAD', lastUpdate: 0 }, errorDeliveryMethod: DIRECT }));
      ok(await call('queryPropertyDefinitions', { resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT }));
      const workspace = await call('allWorkspaceQuery', { queryResultFormat: resultFormat() });
      assert.deepEqual(objectIds(workspace).sort(), ['pub/p', whiteboard].sort());
      ok(await call('moveObject', { objectId: 'pub/c', parentId: whiteboard, errorDeliveryMethod: DIRECT }));
      ok(await call('deleteObject', { objectId: ['pub/p'], errorDeliveryMethod: DIRECT }));
      assert.equal((await call('objectExists', { objectId: 'pub/c', errorDeliveryMethod: DIRECT })).objectExists, true);
    });

    it('STREAMING: the answer is a resultStreamUrl from which the caller GETs the result document', async () => {
      const saved = await call('saveQueryDefinition', { title: 'streamed', description: 'all collections', queryDefinition: { queryTarget: { aggrType: 'COLLECTION' } }, errorDeliveryMethod: DIRECT });
      ok(saved);
      const queryId = saved.queryId as string;
      const streamed: [string, object, string, RegExp][] = [
        ['getAllQueryDescriptions', { resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT }, 'queryDescriptionSet', new RegExp(`<queryId>${queryId}</queryId><name>streamed</name>`)],
        ['getQueryDefinition', { queryId, resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT }, 'queryDefinition', /<queryTarget[^>]*><aggrType>COLLECTION<\/aggrType><\/queryTarget>/],
        ['queryPropertyDefinitions', { resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT }, 'metadataDefinition', /xsi:nil="true"/],
        ['allWorkspaceQuery', { queryResultFormat: { offset: 0, count: 0, hierarchyFilter: 'SUBTREE', contentFilter: 'ID_ONLY', resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT } }, 'queryResponseSet', /<guidResponse objectClass="COLLECTION" objectId="pub\/c"/],
        ['query', { queryTarget: { aggrType: 'COLLECTION' }, queryResultFormat: resultFormat({ resultDeliveryMethod: STREAMING }) }, 'queryResponseSet', /objectId="pub\/c"/],
        ['objectIdQuery', { objectId: ['pub/c'], queryResultFormat: resultFormat({ resultDeliveryMethod: STREAMING }) }, 'queryResponseSet', /objectId="pub\/c"/],
      ];
      for (const [operation, args, element, content] of streamed) {
        const answer = await call(operation, args);
        ok(answer);
        const url = answer.resultStreamUrl as string;
        assert.match(url, new RegExp(`^${catalog.url}/results/`), `${operation}: ${JSON.stringify(answer)}`);
        const mine = await fetch(url, { headers: { Username: DN } });
        assert.equal(mine.status, 200, operation);
        const text = await mine.text();
        assert.equal(parseXml(text).name, element, operation);
        assert.match(text, content, `${operation}: ${text.slice(0, 400)}`);
        assert.equal((await fetch(url, { headers: { Username: 'CN=Someone Else' } })).status, 404, operation);
      }
      ok(await call('deleteQueryDefinition', { queryId, errorDeliveryMethod: DIRECT }));
    });

    it('queries and saved query definitions', async () => {
      const definition = {
        queryTarget: { aggrType: 'COLLECTION', queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '5', comparison: 'LT' } }] }] },
      };
      const saved = await call('saveQueryDefinition', { title: 'fine grids', description: 'dx under 5', queryDefinition: definition, errorDeliveryMethod: DIRECT });
      ok(saved);
      const queryId = saved.queryId as string;
      const descriptions = await call('getAllQueryDescriptions', { resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
      ok(descriptions);
      assert.deepEqual(list(descriptions.queryDescriptionSet.privateQuery).map((q) => [q.queryId, q.name, q.description]), [[queryId, 'fine grids', 'dx under 5']]);
      const got = await call('getQueryDefinition', { queryId, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
      ok(got);
      assert.equal(got.queryDefinition.queryTarget.aggrType, 'COLLECTION');
      const found = await call('query', { queryTarget: definition.queryTarget, queryResultFormat: resultFormat() });
      ok(found);
      assert.deepEqual(objectIds(found), ['pub/c']);
      ok(await call('deleteQueryDefinition', { queryId, errorDeliveryMethod: DIRECT }));
      const gone = await call('getQueryDefinition', { queryId, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
      assert.equal(gone.catalogOperationStatus.status, 'FATAL_QUERY_ERROR');
      ok(await call('deleteUser', { deletedUserId: [DN], errorDeliveryMethod: DIRECT }));
    });

    it('called all 24, and every response validates against wsdl/catalog-types.xsd', async () => {
      assert.deepEqual([...called].sort(), Object.keys(soapActions).sort());
      await catalog.recorder.assertAllValid();
    });
  });
});
