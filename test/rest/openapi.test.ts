import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, lint } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { checkAnswer, openapi } from '../helpers/openapi.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * The description itself: Redocly's recommended rules pass with no warning (redocly.yaml, with
 * the exceptions of .redocly.lint-ignore.yaml, each with its reason), and the checker every test
 * answer goes through does refuse what the description does not allow.
 */
describe('openapi.json', function () {
  this.timeout(60_000);

  // An instance's description, and the one a lookup serves (its reads may answer a Redirect).
  for (const file of ['generated/openapi.json', 'generated/openapi-lookup.json']) {
    it(`${file} passes redocly lint (recommended) with no error and no warning`, async () => {
      const config = await loadConfig({ configPath: path.join(projectRoot, 'redocly.yaml') });
      const problems = await lint({ ref: path.join(projectRoot, file), config });
      const reported = problems.filter((p) => !p.ignored).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
      assert.deepEqual(reported, []);
    });

    it(`${file} passes Spectral (spectral:oas, recommended) with no error`, async () => {
      // Its warnings are not errors: `info-contact` (the project names no contact) and
      // `operation-description` (the generated summaries say what each operation does).
      const spectral = new spectralCore.Spectral();
      spectral.setRuleset({ extends: [[oas as spectralCore.RulesetDefinition, 'recommended']] });
      const results = await spectral.run(JSON.parse(readFileSync(path.join(projectRoot, file), 'utf8')) as Record<string, unknown>);
      assert.deepEqual(results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('/')}: ${r.message}`), []);
    });
  }

  it('types what generators need: members of patches and projections, link endpoints, free-form objects, int64, composite inserts', () => {
    const { schemas } = openapi.components;
    assert.deepEqual(schemas.NodePatch.properties.name, { anyOf: [{ $ref: '#/components/schemas/NetworkResource/properties/name' }, { type: 'null' }] });
    // A projection's member that may hold references may hold the resources (`expand`).
    assert.deepEqual(schemas.LinkProjection.properties.endpoints, { anyOf: [{ $ref: '#/components/schemas/Link/properties/endpoints' }, { $ref: '#/components/schemas/Expanded' }] });
    assert.deepEqual(schemas.LinkProjection.properties.capacity, { $ref: '#/components/schemas/Link/properties/capacity' });
    assert.deepEqual(schemas.Link.properties.endpoints.anyOf, [{ $ref: '#/components/schemas/DirectedEndpoints' }, { $ref: '#/components/schemas/UndirectedEndpoints' }]);
    assert.equal(schemas.NetworkResource.properties.properties.additionalProperties, true);
    assert.equal(schemas.Measurement.properties.configuration.additionalProperties, true);
    for (const [kind, member] of [['NetworkResource', 'ts'], ['Link', 'capacity'], ['Exnode', 'size'], ['Exnode', 'created'], ['Exnode', 'modified']] as const) {
      assert.equal(schemas[kind].properties[member].format, 'int64', `${kind}.${member}`);
    }
    assert.deepEqual(schemas.TopologyInsert.properties.nodes.items.anyOf[1], { $ref: '#/components/schemas/NodeInsert' });
    assert.deepEqual(openapi.paths['/topologies'].post.requestBody.content['application/json'].schema.oneOf[0], { $ref: '#/components/schemas/TopologyInsert' });
    const conditions = openapi.components.parameters.Conditions;
    assert.deepEqual(conditions.example, {}, "Swagger UI's Try it out sends no made-up condition");
    for (const [template, method] of [['/nodes', 'post'], ['/nodes/{id}', 'put'], ['/nodes/{id}', 'patch']] as const) assert.ok(openapi.paths[template][method].responses['406'], `406 on ${method} ${template}`);
    assert.doesNotMatch(openapi.paths['/nodes/{id}'].put.description, /or empty/);
  });

  it('describes HEAD beside every GET, 503 on every collection operation', () => {
    const collectionPath = /^\/(?!docs|ui|about|health|schema|metrics)[a-z]+(\/\{id\})?$/;
    for (const [template, item] of Object.entries(openapi.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>)) {
      if (!collectionPath.test(template)) continue;
      if (item.get) assert.ok(item.head, `HEAD ${template}`);
      for (const [method, operation] of Object.entries(item)) if (method !== 'parameters') assert.ok(operation.responses?.['503'], `503 on ${method} ${template}`);
    }
  });

  const refused: [string, { given: Parameters<typeof checkAnswer>[0]; want: RegExp }][] = [
    ['an undescribed status', { given: { method: 'GET', url: 'http://h/nodes', status: 409, contentType: 'application/json', requestId: 'r', text: '{}' }, want: /no 409 response for listNodes/ }],
    ['a body that breaks the error shape', { given: { method: 'GET', url: 'http://h/nodes/x', status: 404, contentType: 'application/json', requestId: 'r', text: '{"error":{"message":"x"}}' }, want: /does not match/ }],
    ['an undescribed media type', { given: { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'text/plain', requestId: 'r', text: 'hi' }, want: /media type "text\/plain"/ }],
    ['a success for an undescribed method', { given: { method: 'POST', url: 'http://h/health', status: 200, contentType: 'application/json', requestId: 'r', text: '{}' }, want: /does not describe POST \/health/ }],
    ['an array to a plain typed read', { given: { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'application/json', requestId: 'r', text: '[]', accept: 'application/json' }, want: /does not match/ }],
    ['a projection to a plain read', { given: { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'application/json', requestId: 'r', text: '{"ports":[{"id":"p"}]}', accept: 'application/json' }, want: /does not match/ }],
    ['an event stream to a read that did not ask for one', { given: { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'text/event-stream', requestId: 'r', text: '', accept: 'application/json' }, want: /media type "text\/event-stream"/ }],
  ];
  for (const [name, { given, want }] of refused) {
    it(`the answer checker refuses ${name}`, () => {
      assert.throws(() => checkAnswer(given), want);
    });
  }

  // x-topocat-answers: what the query or `Accept` chooses, checked against its listed schema.
  const chosen: [string, Parameters<typeof checkAnswer>[0]][] = [
    ['conditions: an array of versions', { method: 'GET', url: 'http://h/nodes/x?name=n', status: 200, contentType: 'application/json', requestId: 'r', text: '[]', accept: 'application/json' }],
    ['UNIS form: `[]` for an unknown id', { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'application/perfsonar+json', requestId: 'r', text: '[]', accept: '*/*' }],
    ['expand: resources in place of references', { method: 'GET', url: 'http://h/nodes/x?expand', status: 200, contentType: 'application/json', requestId: 'r', text: '{"ports":[{"id":"p"}]}', accept: 'application/json' }],
    ['Accept: text/event-stream', { method: 'GET', url: 'http://h/nodes/x', status: 200, contentType: 'text/event-stream', requestId: 'r', text: '', accept: 'text/event-stream' }],
  ];
  for (const [name, given] of chosen) {
    it(`the answer checker takes what the request chose (${name})`, () => {
      assert.doesNotThrow(() => checkAnswer(given));
    });
  }

  it("types a plain read as the resource: the read's JSON answers are the kind's schema, the rest in x-topocat-answers", () => {
    const ok = openapi.paths['/nodes/{id}'].get.responses['200'];
    for (const media of ['application/json', 'application/topology+json', 'application/perfsonar+json']) assert.deepEqual(ok.content[media].schema, { $ref: '#/components/schemas/Node' }, media);
    assert.equal('text/event-stream' in ok.content, false);
    assert.deepEqual(ok['x-topocat-answers'].map((a: { when: unknown }) => a.when), [{ query: ['fields', 'expand', 'inline'] }, { query: ['conditions', 'ts'] }, { accept: 'unis' }, { accept: 'text/event-stream' }]);
    // Where `expand` cannot reach (scalars, free-form objects), a projection's member is its own schema.
    assert.deepEqual(openapi.components.schemas.NodeProjection.properties.properties, { $ref: '#/components/schemas/NetworkResource/properties/properties' });
  });
});
