import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as codecs from '../../generated/soap/codecs.js';
import { DEFAULT_LIMITS, parseXml, XmlSchemaError, XmlSyntaxError } from '../../generated/soap/runtime.js';
import { projectRoot } from '../helpers/server.js';
import { xsdErrors } from '../helpers/xsd.js';

const NS = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types';
const doc = (body: string, root = 'contextQueryRequest'): string => `<${root} xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${body}</${root}>`;
const FORMAT = '<queryResultFormat><offset>0</offset><count>0</count><hierarchyFilter>TARGET</hierarchyFilter><contentFilter>ID_ONLY</contentFilter><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryResultFormat>';

/** The generated readers and writers on their own, against the XSD they come from. */
describe('generated SOAP codecs', () => {
  it('read every example in wsdl/examples and write it back to XSD-valid XML with the same content', async () => {
    const dir = path.join(projectRoot, 'wsdl/examples');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.xml'));
    assert.ok(files.length >= 5);
    for (const file of files) {
      const root = parseXml(await readFile(path.join(dir, file), 'utf8'));
      const alias = root.name[0]!.toUpperCase() + root.name.slice(1);
      const read = (codecs as unknown as Record<string, (n: unknown) => unknown>)[`read${alias}Element`]!;
      const write = (codecs as unknown as Record<string, (v: unknown) => string>)[`write${alias}Element`]!;
      const value = read(root);
      const written = write(value);
      assert.deepEqual(await xsdErrors(written), [], `${file} written back is valid`);
      assert.deepEqual(read(parseXml(written)), value, `${file} survives a round trip`);
    }
  });

  const accepted: [string, { given: string; check: (v: any) => void }][] = [
    ['defaults of absent attributes', { given: doc(`<queryTarget><aggrType>PROJECT</aggrType></queryTarget>${FORMAT}`), check: (v) => assert.equal(v.queryTarget.negate, false) }],
    ['a repeated choice, grouped by element', {
      given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget><contextQuery><queryComponent><aggrType>PROJECT</aggrType><relation>PARENT</relation></queryComponent><queryOrSet><queryComponent><aggrType>EXPERIMENT</aggrType><relation>DIRECT_PARENT</relation></queryComponent></queryOrSet></contextQuery>${FORMAT}`),
      check: (v) => {
        assert.equal(v.contextQuery.queryComponent[0].relation, 'PARENT');
        assert.equal(v.contextQuery.queryOrSet[0].queryComponent[0].aggrType, 'EXPERIMENT');
      },
    }],
    ['an extension reads its base content first', {
      given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget><contextQuery><queryComponent negate="true"><aggrType>PROJECT</aggrType><objectId>p1</objectId><relation>CHILD</relation></queryComponent></contextQuery>${FORMAT}`),
      check: (v) => assert.deepEqual([v.contextQuery.queryComponent[0].negate, v.contextQuery.queryComponent[0].objectId, v.contextQuery.queryComponent[0].relation], [true, 'p1', 'CHILD']),
    }],
    ['xsd:int and xsd:boolean lexical forms', { given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget><queryResultFormat><offset> +5 </offset><count>0</count><hierarchyFilter>SUBTREE</hierarchyFilter><contentFilter>FULL_SCHEMA</contentFilter><showHasChildren>1</showHasChildren><resultDeliveryMethod>STREAMING</resultDeliveryMethod><errorDeliveryMethod>NONE</errorDeliveryMethod></queryResultFormat>`), check: (v) => assert.deepEqual([v.queryResultFormat.offset, v.queryResultFormat.showHasChildren], [5, true]) }],
    ['escaped text and CDATA', { given: doc('<objectId>a&amp;b<![CDATA[<c>]]></objectId><errorDeliveryMethod>DIRECT</errorDeliveryMethod>', 'objectExistsRequest'), check: (v) => assert.equal(v.objectId, 'a&b<c>') }],
  ];
  for (const [name, { given, check }] of accepted) {
    it(`reads ${name}`, () => {
      const root = parseXml(given);
      const read = root.name === 'objectExistsRequest' ? codecs.readObjectExistsRequestElement : codecs.readContextQueryRequestElement;
      check(read(root));
    });
  }

  const rejected: [string, { given: string; path: string; problem: RegExp }][] = [
    ['a missing required element', { given: doc(FORMAT), path: '/contextQueryRequest', problem: /expected <queryTarget>, found <queryResultFormat>/ }],
    ['elements out of order', { given: doc(`${FORMAT}<queryTarget><aggrType>FILE</aggrType></queryTarget>`), path: '/contextQueryRequest', problem: /expected <queryTarget>/ }],
    ['a value outside an enumeration', { given: doc(`<queryTarget><aggrType>GALAXY</aggrType></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/aggrType', problem: /"GALAXY" is not a value of catalogAggregationType/ }],
    ['a malformed int', { given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget>${FORMAT.replace('<offset>0', '<offset>zero')}`), path: '/contextQueryRequest/queryResultFormat/offset', problem: /not an xsd:int/ }],
    ['an int out of range', { given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget>${FORMAT.replace('<count>0', '<count>99999999999')}`), path: '/contextQueryRequest/queryResultFormat/count', problem: /out of range/ }],
    ['an unknown element', { given: doc(`<queryTarget><aggrType>FILE</aggrType><colour>red</colour></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/colour', problem: /unexpected element <colour>/ }],
    ['an element of another namespace', { given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget>${FORMAT}<x:extra xmlns:x="urn:other"/>`), path: '/contextQueryRequest/extra', problem: /in namespace urn:other/ }],
    ['an undeclared attribute', { given: doc(`<queryTarget colour="red"><aggrType>FILE</aggrType></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/@colour', problem: /attribute not allowed/ }],
    ['a malformed boolean attribute', { given: doc(`<queryTarget negate="maybe"><aggrType>FILE</aggrType></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/@negate', problem: /not a boolean/ }],
    ['xsi:nil on a non-nillable element', { given: doc(`<queryTarget><aggrType xsi:nil="true"/></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/aggrType', problem: /not nillable/ }],
    ['a malformed dateTime', { given: doc(`<queryTarget><aggrType>FILE</aggrType><createDateStart>yesterday</createDateStart></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget/createDateStart', problem: /not an xsd:dateTime/ }],
    ['text in element-only content', { given: doc(`<queryTarget>stray<aggrType>FILE</aggrType></queryTarget>${FORMAT}`), path: '/contextQueryRequest/queryTarget', problem: /text is not allowed/ }],
    ['two branches of a single choice', { given: doc(`<queryTarget><aggrType>FILE</aggrType></queryTarget>${FORMAT.replace('<contentFilter>ID_ONLY</contentFilter>', '<contentFilter>ID_ONLY</contentFilter><propertyFilter><propertyName>a</propertyName><propertySource>b</propertySource></propertyFilter>')}`), path: '/contextQueryRequest/queryResultFormat', problem: /expected <resultDeliveryMethod>, found <propertyFilter>/ }],
    ['a polygon with too few points', {
      given: doc(`<queryTarget><aggrType>FILE</aggrType><queryProperty><name>b</name><source>L</source><queryElement><name>box</name><source>L</source><queryPolygonElement>${'<xyPoint><xPos>1</xPos><yPos>2</yPos></xyPoint>'.repeat(3)}<spatialComparison>WITHIN</spatialComparison></queryPolygonElement></queryElement></queryProperty></queryTarget>${FORMAT}`),
      path: '/contextQueryRequest/queryTarget/queryProperty/queryElement/queryPolygonElement',
      problem: /expected <xyPoint>, found <spatialComparison>/,
    }],
    ['the wrong root element', { given: doc('<errorDeliveryMethod>DIRECT</errorDeliveryMethod>', 'checkStatusRequest'), path: '/checkStatusRequest', problem: /expected <contextQueryRequest>/ }],
  ];
  for (const [name, { given, path: where, problem }] of rejected) {
    it(`rejects ${name}, naming the element`, async () => {
      assert.throws(
        () => codecs.readContextQueryRequestElement(parseXml(given)),
        (error: unknown) => error instanceof XmlSchemaError && error.path === where && problem.test(error.problem),
      );
      if (!given.includes('checkStatusRequest')) assert.notDeepEqual(await xsdErrors(given), [], 'libxml2 agrees it is invalid');
    });
  }

  const hostile: [string, string, RegExp][] = [
    ['a DOCTYPE with an external entity (XXE)', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', /DOCTYPE/],
    ['billion laughs', `<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${'&a;'.repeat(10)}">`).join('')}]><x>&bbbbbbbbb;</x>`, /DOCTYPE/],
    ['an undeclared entity', '<x>&e;</x>', /undefined entity/],
    ['a processing instruction', '<x><?php evil ?></x>', /processing instructions/],
    ['nesting over the depth limit', `${'<x>'.repeat(DEFAULT_LIMITS.maxDepth + 1)}${'</x>'.repeat(DEFAULT_LIMITS.maxDepth + 1)}`, /nested deeper/],
    ['100,000 levels of nesting', `${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}`, /nested deeper/],
    ['too many elements', `<x>${'<y/>'.repeat(50)}</x>`, /more than 10 elements/],
    ['malformed XML', '<x><y></x>', /close tag/],
  ];
  for (const [name, xml, message] of hostile) {
    it(`refuses ${name}`, () => {
      const limits = name === 'too many elements' ? { maxDepth: 100, maxElements: 10 } : DEFAULT_LIMITS;
      assert.throws(() => parseXml(xml, limits), (error: unknown) => error instanceof XmlSyntaxError && message.test(error.message));
    });
  }

  it('writes text that always parses: escaping and characters XML cannot carry', () => {
    const written = codecs.writeObjectExistsRequestElement({ objectId: 'a<b>&"c"\u0001\uFFFE\r', errorDeliveryMethod: 'DIRECT' });
    assert.equal(codecs.readObjectExistsRequestElement(parseXml(written)).objectId, 'a<b>&"c"\uFFFD\uFFFD\r');
  });

  it('reads an empty queryResponseSet: a required choice whose branches are all optional', async () => {
    const xml = `<queryResponse xmlns="${NS}" timestamp="1"><catalogOperationStatus><status>OPERATION_SUCCESSFUL</status></catalogOperationStatus><queryResponseSet/></queryResponse>`;
    assert.deepEqual(await xsdErrors(xml), []);
    const read = codecs.readQueryResponseElement(parseXml(xml));
    assert.deepEqual(read.queryResponseSet?.guidResponse, []);
  });

  it('writes xsi:nil for null in a nillable element', async () => {
    const written = codecs.writeWhiteboardIdResponseElement({ catalogOperationStatus: { status: 'FATAL_QUERY_ERROR' }, objectId: null });
    assert.match(written, /<objectId xsi:nil="true"\/>/);
    assert.deepEqual(await xsdErrors(written), []);
    assert.equal(codecs.readWhiteboardIdResponseElement(parseXml(written)).objectId, null);
  });
});
