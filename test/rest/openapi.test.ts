import assert from 'node:assert/strict';
import path from 'node:path';
import { loadConfig, lint } from '@redocly/openapi-core';
import { checkAnswer, openapi } from '../helpers/openapi.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * The description itself: Redocly's recommended rules pass with no warning (redocly.yaml, with
 * the exceptions of .redocly.lint-ignore.yaml, each with its reason), and the checker every test
 * answer goes through does refuse what the description does not allow.
 */
describe('openapi.json', function () {
  this.timeout(60_000);

  it('passes redocly lint (recommended) with no error and no warning', async () => {
    const config = await loadConfig({ configPath: path.join(projectRoot, 'redocly.yaml') });
    const problems = await lint({ ref: path.join(projectRoot, 'generated/openapi.json'), config });
    const reported = problems.filter((p) => !p.ignored).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    assert.deepEqual(reported, []);
  });

  it('describes a PATCH body with the kind\'s members, HEAD beside every GET, 503 on every collection operation', () => {
    const patch = openapi.components.schemas.NodePatch;
    assert.ok(Object.keys(patch.properties).includes('name'));
    assert.deepEqual(patch.properties.name.type, ['string', 'null']);
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
  ];
  for (const [name, { given, want }] of refused) {
    it(`the answer checker refuses ${name}`, () => {
      assert.throws(() => checkAnswer(given), want);
    });
  }
});
