import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogStatusType, DeletePropertyType, PropertyType, UpdatePropertyType } from '../../generated/soap/types.js';
import { assertStatus, DEFINITIONS_EXAMPLE, DIRECT, format, object, property, startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { startServer } from '../helpers/server.js';

const ALICE = 'CN=Alice,O=Example';
const BOB = 'CN=Bob,O=Example';

/** The object's properties as FULL_SCHEMA returns them. */
async function propertiesOf(client: CatalogServiceClient, objectId: string): Promise<PropertyType[]> {
  const response = await client.objectIdQuery({ objectId: [objectId], queryResultFormat: format({ contentFilter: 'FULL_SCHEMA' }) });
  return response.queryResponseSet?.objectResponse?.[0]?.property ?? [];
}

async function modificationDate(client: CatalogServiceClient, objectId: string): Promise<number> {
  const response = await client.objectIdQuery({ objectId: [objectId], queryResultFormat: format({ showModifyDate: true }) });
  return response.queryResponseSet!.guidResponse![0]!.modificationDate!;
}

const titles = (properties: PropertyType[]) => properties.filter((p) => p.name === 'citation').map((p) => p.element?.find((e) => e.name === 'title')?.value);
const citation = (title: string) => property('citation', { title });

describe('SOAP catalog: properties', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let whiteboard: string;

  before(async () => {
    catalog = await startCatalog();
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    await alice.createUser({ catalogUser: [{ userId: ALICE }, { userId: BOB }], errorDeliveryMethod: DIRECT });
    whiteboard = (await alice.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId!;
    await alice.createObject({ catalogData: [object('obj', 'PROJECT')], errorDeliveryMethod: DIRECT });
    await bob.createObject({ catalogData: [object('bob/obj', 'PROJECT')], errorDeliveryMethod: DIRECT });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('addProperty appends instances; values, elements, sources and sub-properties come back as stored', async () => {
    const rich: PropertyType = {
      name: 'citation',
      source: 'LEAD',
      value: 'shorthand',
      element: [
        { name: 'title', value: 'Storm <&> "study"' },
        { name: 'origin', source: 'NOAA', value: 'DOC/NOAA/NWS' },
      ],
      property: [{ name: 'pubinfo', source: 'LEAD', element: [{ name: 'pubplace', value: 'Boulder, CO' }], property: [{ name: 'deeper', source: 'X', value: '3' }] }],
    };
    const before = await modificationDate(alice, 'obj');
    const response = await alice.addProperty({ catalogProperty: [{ objectId: 'obj', catalogPropertyAdd: [citation('first'), rich] }], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const stored = await propertiesOf(alice, 'obj');
    assert.deepEqual(stored[1], {
      name: 'citation',
      source: 'LEAD',
      value: 'shorthand',
      element: [
        { name: 'title', source: 'LEAD', value: 'Storm <&> "study"' },
        { name: 'origin', source: 'NOAA', value: 'DOC/NOAA/NWS' },
      ],
      property: [
        {
          name: 'pubinfo',
          source: 'LEAD',
          element: [{ name: 'pubplace', source: 'LEAD', value: 'Boulder, CO' }],
          property: [{ name: 'deeper', source: 'X', value: '3', element: [], property: [] }],
        },
      ],
    });
    await alice.addProperty({ catalogProperty: [{ objectId: 'obj', catalogPropertyAdd: [citation('third')] }], errorDeliveryMethod: DIRECT });
    assert.deepEqual(titles(await propertiesOf(alice, 'obj')), ['first', 'Storm <&> "study"', 'third']);
    assert.ok((await modificationDate(alice, 'obj')) >= before);
  });

  it('addProperty: refused items store nothing, the others are stored (NON_FATAL_UPDATE_ERROR)', async () => {
    await alice.createObject({ catalogData: [object('add/a', 'PROJECT'), object('add/b', 'PROJECT')], errorDeliveryMethod: DIRECT });
    const response = await alice.addProperty({
      catalogProperty: [
        { objectId: 'add/a', catalogPropertyAdd: [citation('kept')] },
        { objectId: 'add/b', catalogPropertyAdd: [citation('not kept'), { name: 'empty', source: 'LEAD' }] },
        { objectId: 'no/such', catalogPropertyAdd: [citation('x')] },
        { objectId: 'bob/obj', catalogPropertyAdd: [citation('x')] },
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(response.catalogOperationStatus, 'NON_FATAL_UPDATE_ERROR', 'NO_DATA', 'addProperty');
    assert.deepEqual(response.catalogOperationStatus.operationSummary?.nonFatalError?.map((e) => e.cause), ['NO_DATA', 'OBJECT_DOES_NOT_EXIST', 'OBJECT_DOES_NOT_EXIST']);
    assert.deepEqual(titles(await propertiesOf(alice, 'add/a')), ['kept']);
    assert.deepEqual(await propertiesOf(alice, 'add/b'), []);
    assert.deepEqual(await propertiesOf(bob, 'bob/obj'), []);
    assertStatus((await alice.addProperty({ catalogProperty: [{ objectId: 'no/such', catalogPropertyAdd: [citation('x')] }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'OBJECT_DOES_NOT_EXIST');
  });

  describe('updateProperty', function () {
    before(async () => {
      await alice.createObject({ catalogData: [object('upd/one', 'PROJECT', undefined, [citation('only'), property('grid', { dx: '1' }, { property: [{ name: 'pubinfo', source: 'LEAD', value: 'p' }] })]), object('upd/two', 'PROJECT', undefined, [citation('a'), citation('b')])], errorDeliveryMethod: DIRECT });
    });

    it('replaces the one instance without a position, and the instance at a position, keeping the order', async () => {
      assertStatus((await alice.updateProperty({ updateProperty: { objectId: 'upd/one', catalogPropertyUpdate: citation('replaced') }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assert.deepEqual(titles(await propertiesOf(alice, 'upd/one')), ['replaced']);
      assertStatus((await alice.updateProperty({ updateProperty: { objectId: 'upd/two', catalogPropertyUpdate: citation('B'), position: 2 }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assertStatus((await alice.updateProperty({ updateProperty: { objectId: 'upd/two', catalogPropertyUpdate: citation('A'), position: 1 }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assert.deepEqual(titles(await propertiesOf(alice, 'upd/two')), ['A', 'B']);
    });

    it('replaces the whole instance: elements and sub-properties not sent are gone', async () => {
      assertStatus((await alice.updateProperty({ updateProperty: { objectId: 'upd/one', catalogPropertyUpdate: property('grid', { dy: '2' }) }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      const grid = (await propertiesOf(alice, 'upd/one')).find((p) => p.name === 'grid');
      assert.deepEqual(grid, { name: 'grid', source: 'LEAD', element: [{ name: 'dy', source: 'LEAD', value: '2' }], property: [] });
    });

    it('accepts lastUpdate equal to the timestamp of a query that saw the object', async () => {
      const seen = await alice.objectIdQuery({ objectId: ['upd/one'], queryResultFormat: format() });
      const response = await alice.updateProperty({ updateProperty: { objectId: 'upd/one', catalogPropertyUpdate: citation('fresh'), lastUpdate: seen.timestamp }, errorDeliveryMethod: DIRECT });
      assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    });

    const failures: [string, { given: Omit<UpdatePropertyType, 'lastUpdate'> & { stale?: true }; want: CatalogStatusType }][] = [
      ['a property without instances', { given: { objectId: 'upd/one', catalogPropertyUpdate: property('description', { abstract: 'x' }) }, want: 'PROPERTY_HAS_NO_INSTANCE' }],
      ['several instances and no position', { given: { objectId: 'upd/two', catalogPropertyUpdate: citation('x') }, want: 'NO_UPDATE_POSITION' }],
      ['a position past the count', { given: { objectId: 'upd/two', catalogPropertyUpdate: citation('x'), position: 3 }, want: 'UPDATE_POSITION_EXCEEDS_CARDINALITY' }],
      ['position 0', { given: { objectId: 'upd/two', catalogPropertyUpdate: citation('x'), position: 0 }, want: 'UPDATE_POSITION_EXCEEDS_CARDINALITY' }],
      ['a stale lastUpdate', { given: { objectId: 'upd/two', catalogPropertyUpdate: citation('x'), position: 1, stale: true }, want: 'PROPERTY_UPDATE_TIMESTAMP' }],
      ["another user's object", { given: { objectId: 'bob/obj', catalogPropertyUpdate: citation('x') }, want: 'OBJECT_DOES_NOT_EXIST' }],
      ['an empty property', { given: { objectId: 'upd/two', catalogPropertyUpdate: { name: 'citation', source: 'LEAD' }, position: 1 }, want: 'NO_DATA' }],
    ];
    for (const [name, { given, want }] of failures) {
      it(`with ${name}: FATAL_UPDATE_ERROR / ${want}, nothing changed`, async () => {
        const { stale, ...request } = given;
        const lastUpdate = stale ? (await modificationDate(alice, request.objectId)) - 1 : undefined;
        const before = await propertiesOf(alice, 'upd/two');
        const response = await alice.updateProperty({ updateProperty: { ...request, ...(lastUpdate === undefined ? {} : { lastUpdate }) }, errorDeliveryMethod: DIRECT });
        assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', want, 'updateProperty');
        assert.deepEqual(await propertiesOf(alice, 'upd/two'), before);
      });
    }
  });

  describe('deleteProperty', function () {
    const fourTitles = ['t1', 't2', 't3', 't4'];
    let counter = 0;
    /** A fresh object with four citations and a citation-like sub-property. */
    async function fresh(): Promise<string> {
      const id = `delp/${++counter}`;
      await alice.createObject({ catalogData: [object(id, 'PROJECT', undefined, [...fourTitles.map(citation), property('description', { abstract: 'a' }, { property: [{ name: 'pubinfo', source: 'LEAD', value: 'x' }] })])], errorDeliveryMethod: DIRECT });
      return id;
    }
    const remove = (objectId: string, selection: Partial<DeletePropertyType>, name = 'citation') =>
      alice.deleteProperty({ deleteProperty: { objectId, propertyName: name, propertySource: 'LEAD', lastUpdate: 0, ...selection }, errorDeliveryMethod: DIRECT });

    const selections: [string, { given: Partial<DeletePropertyType>; want: string[] }][] = [
      ['positions 1 and 3', { given: { position: [3, 1] }, want: ['t2', 't4'] }],
      ['the range 2…4', { given: { propertyRange: { first: 2, last: 4 } }, want: ['t1'] }],
      ['the range 4…4', { given: { propertyRange: { first: 4, last: 4 } }, want: ['t1', 't2', 't3'] }],
    ];
    for (const [name, { given, want }] of selections) {
      it(`deletes ${name} and renumbers the rest`, async () => {
        const id = await fresh();
        assertStatus((await remove(id, given)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
        assert.deepEqual(titles(await propertiesOf(alice, id)), want);
        // Positions are 1…n again: the last remaining instance is at position n.
        assertStatus((await alice.updateProperty({ updateProperty: { objectId: id, catalogPropertyUpdate: citation('last'), position: want.length }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
        assert.deepEqual(titles(await propertiesOf(alice, id)), [...want.slice(0, -1), 'last']);
      });
    }

    it('deletes the only instance without a position', async () => {
      const id = await fresh();
      assertStatus((await remove(id, {}, 'description')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assert.deepEqual((await propertiesOf(alice, id)).map((p) => p.name), ['citation', 'citation', 'citation', 'citation']);
    });

    const failures: [string, { given: Partial<DeletePropertyType> & { name?: string; stale?: true; on?: string }; want: CatalogStatusType }][] = [
      ['several instances and no position', { given: {}, want: 'NO_DELETE_POSITION' }],
      ['position 0', { given: { position: [1, 0] }, want: 'INVALID_DELETE_POSITION' }],
      ['a position past the count', { given: { position: [5] }, want: 'INVALID_DELETE_POSITION' }],
      ['a range with first > last', { given: { propertyRange: { first: 3, last: 2 } }, want: 'INVALID_DELETE_RANGE' }],
      ['a range past the count', { given: { propertyRange: { first: 2, last: 9 } }, want: 'DELETE_RANGE_EXCEEDS_CARDINALITY' }],
      ['a property without instances', { given: { name: 'grid' }, want: 'PROPERTY_HAS_NO_INSTANCE' }],
      ['a sub-property', { given: { name: 'pubinfo' }, want: 'CANNOT_DELETE_SUBPROPERTY' }],
      ['a stale lastUpdate', { given: { position: [1], stale: true }, want: 'PROPERTY_DELETE_TIMESTAMP' }],
      ["another user's object", { given: { position: [1], on: 'bob/obj' }, want: 'OBJECT_DOES_NOT_EXIST' }],
      ['whiteboard properties', { given: { on: 'WB', name: 'keyword' }, want: 'CANNOT_DELETE_WHITEBOARD_PROPERTIES' }],
    ];
    for (const [name, { given, want }] of failures) {
      it(`refuses ${name}: FATAL_DELETE_ERROR / ${want}, nothing deleted`, async () => {
        const { name: propertyName, stale, on, ...selection } = given;
        const id = on === 'WB' ? whiteboard : on ?? (await fresh());
        if (on === 'WB') await alice.addProperty({ catalogProperty: [{ objectId: whiteboard, catalogPropertyAdd: [{ name: 'keyword', source: 'LEAD', value: 'wb' }] }], errorDeliveryMethod: DIRECT });
        const owner = on === 'bob/obj' ? bob : alice;
        const before = await propertiesOf(owner, id);
        const lastUpdate = stale ? (await modificationDate(alice, id)) - 1 : 0;
        const response = await remove(id, { ...selection, lastUpdate }, propertyName);
        assertStatus(response.catalogOperationStatus, 'FATAL_DELETE_ERROR', want, 'deleteProperty');
        assert.deepEqual(await propertiesOf(owner, id), before);
      });
    }

    it('a current lastUpdate passes the check', async () => {
      const id = await fresh();
      const lastUpdate = (await alice.objectIdQuery({ objectId: [id], queryResultFormat: format() })).timestamp;
      assertStatus((await remove(id, { position: [1], lastUpdate })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    });
  });

  it('whiteboard properties can be added and updated', async () => {
    await alice.addProperty({ catalogProperty: [{ objectId: whiteboard, catalogPropertyAdd: [property('description', { abstract: 'mine' })] }], errorDeliveryMethod: DIRECT });
    assertStatus((await alice.updateProperty({ updateProperty: { objectId: whiteboard, catalogPropertyUpdate: property('description', { abstract: 'still mine' }) }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal((await propertiesOf(alice, whiteboard)).find((p) => p.name === 'description')?.element?.[0]?.value, 'still mine');
  });

  it('queryPropertyDefinitions without a definitions file: success with a nil metadataDefinition', async () => {
    const answer = await catalog.raw(`<queryPropertyDefinitionsRequest xmlns="http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types"><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryPropertyDefinitionsRequest>`, { dn: ALICE });
    assert.match(answer.text, /<status>OPERATION_SUCCESSFUL<\/status><\/catalogOperationStatus><metadataDefinition xsi:nil="true"\/>/);
    // STREAMING: the same nil element, as the document at resultStreamUrl.
    const typed = await alice.queryPropertyDefinitions({ resultDeliveryMethod: 'STREAMING', errorDeliveryMethod: DIRECT });
    assert.equal(typed.metadataDefinition, undefined);
    const streamed = await fetch(typed.resultStreamUrl!, { headers: { Username: ALICE } });
    assert.equal(streamed.status, 200);
    assert.match(await streamed.text(), /<metadataDefinition xmlns="[^"]+" xmlns:xsi="[^"]+" xsi:nil="true"\/>$/);
  });

  it('without CATALOG_ENFORCE_DEFINITIONS any property is accepted', async () => {
    const response = await alice.addProperty({ catalogProperty: [{ objectId: 'obj', catalogPropertyAdd: [property('whatever', { anything: 'goes' }, {}, 'MINE')] }], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});

describe('SOAP catalog: property definitions', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;

  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_DEFINITIONS_FILE: DEFINITIONS_EXAMPLE, CATALOG_ENFORCE_DEFINITIONS: 'true' } });
    alice = catalog.client(ALICE);
    await alice.createUser({ catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT });
    await alice.createObject({ catalogData: [object('obj', 'COLLECTION')], errorDeliveryMethod: DIRECT });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('queryPropertyDefinitions returns the loaded categories, properties, sub-properties and element types', async () => {
    const response = await alice.queryPropertyDefinitions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const categories = response.metadataDefinition!.metadataCategoryDef;
    assert.deepEqual(categories.map((c) => [c.categoryId, c.categoryName]), [[1, 'LEAD identification'], [2, 'LEAD spatial']]);
    const citationDef = categories[0]!.metadataPropertyDef![0]!;
    assert.deepEqual([citationDef.propertyId, citationDef.propertyName, citationDef.propertySource, citationDef.propertyShortDesc], [1, 'citation', 'LEAD', 'Citation']);
    assert.deepEqual(citationDef.metadataElementDef!.map((e) => [e.elementName, e.elementSource, e.elementType]), [['title', 'LEAD', 1], ['origin', 'LEAD', 1], ['pubdate', 'LEAD', 4]]);
    assert.deepEqual(citationDef.metadataPropertyDef!.map((p) => p.propertyName), ['pubinfo']);
    const grid = categories[1]!.metadataPropertyDef!.find((p) => p.propertyName === 'grid')!;
    assert.deepEqual(grid.metadataElementDef!.map((e) => [e.elementName, e.elementType]), [['ctrlat', 3], ['ctrlon', 3], ['dx', 3], ['dy', 3], ['nx', 2], ['ny', 2]]);
  });

  const enforced: [string, { given: PropertyType; want: CatalogStatusType | 'OK' }][] = [
    ['defined elements of every type', { given: { name: 'grid', source: 'LEAD', element: [{ name: 'nx', value: '120' }, { name: 'dx', value: '2.5e1' }] }, want: 'OK' }],
    ['a defined sub-property and a dateTime', { given: property('citation', { title: 't', pubdate: '2026-01-31T12:00:00Z' }, { property: [property('pubinfo', { pubplace: 'Boulder' })] }), want: 'OK' }],
    ['the value shorthand of a property with an element of its name', { given: { name: 'keyword', source: 'LEAD', value: 'radar' }, want: 'OK' }],
    ['a polygon', { given: property('spatialBounds', { boundingBox: 'POLYGON((-100 43, -96 43, -96 48, -100 48, -100 43))' }), want: 'OK' }],
    ['an undefined property', { given: property('colour', { hue: 'red' }), want: 'PROPERTY_NOT_DEFINED' }],
    ['a defined name from another source', { given: property('citation', { title: 't' }, {}, 'OTHER'), want: 'PROPERTY_NOT_DEFINED' }],
    ['an undefined sub-property', { given: property('citation', { title: 't' }, { property: [property('grid', { dx: '1' })] }), want: 'PROPERTY_NOT_DEFINED' }],
    ['an undefined element', { given: property('citation', { subtitle: 't' }), want: 'ELEMENT_NOT_DEFINED' }],
    ['the value shorthand without an element of its name', { given: { name: 'citation', source: 'LEAD', value: 'x' }, want: 'ELEMENT_NOT_DEFINED' }],
    ['a fraction in an integer', { given: property('grid', { nx: '1.5' }), want: 'INT_ELEMENT_CONTAINS_FLOAT' }],
    ['text in an integer', { given: property('grid', { ny: 'many' }), want: 'INT_ELEMENT_CONTAINS_NONNUMERIC' }],
    ['text in a float', { given: property('grid', { dy: 'small' }), want: 'FLOAT_ELEMENT_CONTAINS_NONNUMERIC' }],
    ['an impossible date', { given: property('citation', { pubdate: '2026-02-30' }), want: 'INVALID_DATETIME_ELEMENT' }],
    ['a polygon of two points', { given: property('spatialBounds', { boundingBox: '1 2, 3 4' }), want: 'INVALID_POLYGON_ELEMENT' }],
  ];
  for (const [name, { given, want }] of enforced) {
    it(`addProperty with ${name} → ${want}`, async () => {
      const response = await alice.addProperty({ catalogProperty: [{ objectId: 'obj', catalogPropertyAdd: [given] }], errorDeliveryMethod: DIRECT });
      if (want === 'OK') assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      else assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', want, 'addProperty');
    });
  }

  it('createObject and updateProperty enforce the definitions too', async () => {
    assertStatus((await alice.createObject({ catalogData: [object('bad', 'COLLECTION', undefined, [property('grid', { nx: 'x' })])], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'INT_ELEMENT_CONTAINS_NONNUMERIC');
    assertStatus((await alice.updateProperty({ updateProperty: { objectId: 'obj', catalogPropertyUpdate: property('grid', { dz: '1' }), position: 1 }, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'ELEMENT_NOT_DEFINED');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});

describe('SOAP catalog: a broken definitions file', function () {
  it('stops the server at start with the file and the JSON pointer of the problem', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'topocat-definitions-'));
    try {
      const file = path.join(dir, 'definitions.json');
      await writeFile(file, JSON.stringify({ categories: [{ name: 'c', properties: [{ name: 'p', source: 's', elements: [{ name: 'e', type: 'colour' }] }] }] }));
      await assert.rejects(startServer({ env: { CATALOG_DEFINITIONS_FILE: file } }), (error: Error) => {
        assert.match(error.message, /definitions\.json#\/categories\/0\/properties\/0\/elements\/0\/type: must be one of string, integer, float, dateTime, time, point, polygon/);
        return true;
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
