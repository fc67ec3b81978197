import assert from 'node:assert/strict';
import { QUERY_OPERATORS, RESERVED_PARAMETERS, VALUE_TYPES, type QueryOperator } from '../../generated/rest/contract.js';
import { QueryError } from '../../server/query/errors.js';
import { parseQuery } from '../../server/query/parse.js';
import { project } from '../../server/query/project.js';
import type { ParsedQuery } from '../../server/query/syntax.js';

const MAX = 256;

/** The parser on its own: [name, { given, want }] (the HTTP suite checks what the forms mean). */
describe('query language parser', () => {
  const parses: [string, { given: string; want: Partial<ParsedQuery> }][] = [
    ['empty', { given: '', want: { conditions: [], sort: [] } }],
    ['equality', { given: 'name=a', want: { conditions: [{ terms: [{ field: ['name'], operator: 'eq', values: [{ value: 'a' }], parameter: 'name' }] }] } }],
    ['dot notation', { given: 'a.b.c=v', want: { conditions: [{ terms: [{ field: ['a', 'b', 'c'], operator: 'eq', values: [{ value: 'v' }], parameter: 'a.b.c' }] }] } }],
    ['IN', { given: 'a=1,2', want: { conditions: [{ terms: [{ field: ['a'], operator: 'eq', values: [{ value: '1' }, { value: '2' }], parameter: 'a' }] }] } }],
    ['comparison', { given: 'a=lte=5', want: { conditions: [{ terms: [{ field: ['a'], operator: 'lte', values: [{ value: '5' }], parameter: 'a' }] }] } }],
    ['typed values', { given: 'a=integer:5', want: { conditions: [{ terms: [{ field: ['a'], operator: 'eq', values: [{ value: 5, type: 'integer' }], parameter: 'a' }] }] } }],
    ['typed boolean 1', { given: 'a=boolean:1', want: { conditions: [{ terms: [{ field: ['a'], operator: 'eq', values: [{ value: true, type: 'boolean' }], parameter: 'a' }] }] } }],
    ['OR', {
      given: 'a=1|b=gt=2',
      want: { conditions: [{ terms: [
        { field: ['a'], operator: 'eq', values: [{ value: '1' }], parameter: 'a' },
        { field: ['b'], operator: 'gt', values: [{ value: '2' }], parameter: 'a' },
      ] }] },
    }],
    // Decoded before the grammar applies, as UNIS (Tornado) did: encoders escape the operators.
    ['an encoded operator is the operator', { given: 'ts=gt%3D5', want: { conditions: [{ terms: [{ field: ['ts'], operator: 'gt', values: [{ value: '5' }], parameter: 'ts' }] }] } }],
    ['an encoded comma separates a list', { given: 'fields=id%2Cname', want: { fields: { paths: [['id'], ['name']], except: false } } }],
    ['an encoded bar separates OR terms', {
      given: 'a=1%7Cb%3D2',
      want: { conditions: [{ terms: [{ field: ['a'], operator: 'eq', values: [{ value: '1' }], parameter: 'a' }, { field: ['b'], operator: 'eq', values: [{ value: '2' }], parameter: 'a' }] }] },
    }],
    ['an encoded ampersand is part of the value', { given: 'a=x%26y', want: { conditions: [{ terms: [{ field: ['a'], operator: 'eq', values: [{ value: 'x&y' }], parameter: 'a' }] }] } }],
    ['boolean: in any letter case', { given: 'a=boolean:TRUE&b=Boolean:False', want: { conditions: [
      { terms: [{ field: ['a'], operator: 'eq', values: [{ value: true, type: 'boolean' }], parameter: 'a' }] },
      { terms: [{ field: ['b'], operator: 'eq', values: [{ value: false, type: 'boolean' }], parameter: 'b' }] },
    ] } }],
    ['unique, inline and expand are switches, not conditions', { given: 'unique=true&inline=&expand=&fields=selfRef', want: { conditions: [], unique: true, inline: true, expand: true, fields: { paths: [['selfRef']], except: false } } }],
    ['a bare inline', { given: 'inline', want: { conditions: [], inline: true, expand: false, unique: false } }],
    ['a bare expand', { given: 'expand', want: { conditions: [], inline: false, expand: true, unique: false } }],
    ['unique=false', { given: 'unique=FALSE', want: { unique: false } }],
    ['empty pairs are nothing', { given: '&&', want: { conditions: [], sort: [] } }],
    ['at is an instant, not a condition', { given: 'at=1795000000000000&name=a', want: { at: 1795000000000000, conditions: [{ terms: [{ field: ['name'], operator: 'eq', values: [{ value: 'a' }], parameter: 'name' }] }] } }],
    ['an instant beyond 2^53 is the latest one', { given: 'at=99999999999999999999', want: { at: Number.MAX_SAFE_INTEGER } }],
    ['since and until ask for changes', { given: 'since=5&until=9', want: { conditions: [], changes: { since: 5, until: 9 } } }],
    ['since defaults to 0', { given: 'until=9', want: { changes: { since: 0, until: 9 } } }],
    ['until may be omitted', { given: 'since=5', want: { changes: { since: 5 } } }],
    ['paging, projection and sort', { given: 'limit=5&skip=10&fields=id,a.b&sort=a:-1,b:1', want: { conditions: [], limit: 5, skip: 10, fields: { paths: [['id'], ['a', 'b']], except: false }, sort: [{ field: ['a'], descending: true }, { field: ['b'], descending: false }] } }],
    // Revised 2026-11-29 (rest-contract §5), as UNIS HEAD reads them.
    ['fields=neg= is every field except those', { given: 'fields=neg=a,b.c', want: { fields: { paths: [['a'], ['b', 'c']], except: true } } }],
    ['limit=0 is no limit', { given: 'limit=0&skip=2', want: { limit: undefined, skip: 2 } }],
    ['cert is no condition', { given: 'cert=whatever&name=a', want: { conditions: [{ terms: [{ field: ['name'], operator: 'eq', values: [{ value: 'a' }], parameter: 'name' }] }] } }],
    ['exists=true', { given: 'a.b=exists=true', want: { conditions: [{ terms: [{ field: ['a', 'b'], operator: 'exists', values: [{ value: true, type: 'boolean' }], parameter: 'a.b' }] }] } }],
    ['exists=false in any letter case', { given: 'a=exists=FALSE', want: { conditions: [{ terms: [{ field: ['a'], operator: 'exists', values: [{ value: false, type: 'boolean' }], parameter: 'a' }] }] } }],
  ];
  for (const [name, { given, want }] of parses) {
    it(`parses ${name}`, () => {
      const got = parseQuery(given, MAX);
      for (const [key, value] of Object.entries(want)) assert.deepEqual((got as unknown as Record<string, unknown>)[key], value, key);
    });
  }

  const rejects: [string, { given: string; parameter: string }][] = [
    ['a bad integer', { given: 'a=integer:x', parameter: 'a' }],
    ['a bad number', { given: 'a=number:1e', parameter: 'a' }],
    ['a bad boolean', { given: 'a=boolean:yes', parameter: 'a' }],
    ['a non-integer limit', { given: 'limit=-1', parameter: 'limit' }],
    ['a non-integer skip', { given: 'skip=1.5', parameter: 'skip' }],
    ['an empty field name', { given: '=5', parameter: '' }],
    ['an empty path segment', { given: 'a..b=5', parameter: 'a..b' }],
    ['a field with quotes', { given: 'a%22=5', parameter: 'a"' }],
    ['a comparison with a list', { given: 'a=lt=1,2', parameter: 'a' }],
    ['an OR term without a field', { given: 'a=1|2', parameter: 'a' }],
    ['a bad sort direction', { given: 'sort=a:up', parameter: 'sort' }],
    ['malformed percent-encoding', { given: 'a=%E0%A4%A', parameter: 'a' }],
    ['a unique that is no switch', { given: 'unique=maybe', parameter: 'unique' }],
    ['an instant that is no integer', { given: 'at=2026-11-26', parameter: 'at' }],
    ['a negative since', { given: 'since=-1', parameter: 'since' }],
    ['an empty until', { given: 'until=', parameter: 'until' }],
    ['at with since or until', { given: 'at=5&until=6', parameter: 'at' }],
    ['since after until', { given: 'since=7&until=6', parameter: 'since' }],
    ['an exists that is no switch', { given: 'a=exists=maybe', parameter: 'a' }],
    ['an empty exists in an OR term', { given: 'a=b|c=exists=', parameter: 'a' }],
    ['fields=neg= with nothing after it', { given: 'fields=neg=', parameter: 'fields' }],
    ['too many parameters', { given: Array.from({ length: MAX + 1 }, (_, i) => `a${i}=1`).join('&'), parameter: 'query' }],
  ];
  for (const [name, { given, parameter }] of rejects) {
    it(`rejects ${name}, naming the parameter`, () => {
      assert.throws(() => parseQuery(given, MAX), (error: unknown) => error instanceof QueryError && error.parameter === parameter);
    });
  }

  /** `ts` of a single resource selects a version; of a collection it is a condition like any other. */
  const versions: [string, { given: string; want: number | null | undefined }][] = [
    ['a plain ts', { given: 'ts=123', want: 123 }],
    ['a typed ts', { given: 'ts=integer:123', want: 123 }],
    ['ts with another condition', { given: 'ts=123&name=a', want: 123 }],
    ['ts with a projection', { given: 'ts=123&fields=id', want: 123 }],
    ['a ts beyond every version', { given: 'ts=99999999999999999999999', want: null }],
    ['no ts', { given: 'name=a', want: undefined }],
  ];
  for (const [name, { given, want }] of versions) {
    it(`version of a resource: ${name}`, () => assert.equal(parseQuery(given, MAX, 'resource').version, want));
  }

  it('reads every operator, typed value and reserved parameter of the contract table (generator/model/http.ts)', () => {
    for (const [operator, { prefix, takes }] of Object.entries(QUERY_OPERATORS) as [QueryOperator, (typeof QUERY_OPERATORS)[QueryOperator]][]) {
      const value = takes === 'nothing' ? '' : takes === 'switch' ? 'true' : 'v';
      const [term] = parseQuery(`a=${prefix}=${value}`, MAX).conditions[0]!.terms;
      assert.equal(term!.operator, operator, prefix);
      // `string:` makes the same text a value (how the REST client sends one, rest-contract §5).
      assert.deepEqual(parseQuery(`a=string:${prefix}=${value}`, MAX).conditions[0]!.terms[0]!.values, [{ value: `${prefix}=${value}`, type: 'string' }], prefix);
      if (takes === 'value') assert.throws(() => parseQuery(`a=${prefix}=1,2`, MAX), QueryError, prefix);
      if (takes === 'nothing') assert.throws(() => parseQuery(`a=${prefix}=v`, MAX), QueryError, prefix);
      if (takes === 'switch') assert.throws(() => parseQuery(`a=${prefix}=v`, MAX), QueryError, prefix);
      if (takes === 'text') assert.deepEqual(parseQuery(`a=${prefix}=1,2`, MAX).conditions[0]!.terms[0]!.values, [{ value: '1,2' }], prefix);
    }
    for (const type of VALUE_TYPES) assert.equal(parseQuery(`a=${type.toUpperCase()}:1`, MAX).conditions[0]!.terms[0]!.values[0]!.type, type);
    for (const name of RESERVED_PARAMETERS) assert.deepEqual(parseQuery(`${name}=1`, MAX).conditions, [], name);
  });

  it('ts of a single resource that is not one integer is a condition on its versions (rest-contract §3)', () => {
    for (const given of ['ts=gt=5', 'ts=lte=5', 'ts=5,6', 'ts=abc', 'ts=-1', 'ts=']) {
      const parsed = parseQuery(given, MAX, 'resource');
      assert.equal(parsed.version, undefined, given);
      assert.deepEqual(parsed.conditions.map((c) => c.terms.map((t) => t.field.join('.'))), [['ts']], given);
    }
  });

  it('since and until are of collections: a single resource refuses them, naming the parameter', () => {
    assert.throws(() => parseQuery('since=5', MAX, 'resource'), (error: unknown) => error instanceof QueryError && error.parameter === 'since');
    assert.equal(parseQuery('at=5', MAX, 'resource').at, 5);
  });

  it('ts of a collection is a condition', () => {
    assert.equal(parseQuery('ts=123', MAX).version, undefined);
    assert.equal(parseQuery('ts=123', MAX).conditions.length, 1);
  });

  it('projects nested fields and maps arrays', () => {
    const document = { id: 'x', a: { b: 1, c: 2 }, hops: [{ href: 'h1', rel: 'full' }, { href: 'h2' }] };
    assert.deepEqual(project(document, { paths: [['id'], ['a', 'b'], ['hops', 'href']], except: false }), { id: 'x', a: { b: 1 }, hops: [{ href: 'h1' }, { href: 'h2' }] });
  });

  it('projects every field but the excepted ones (fields=neg=), through lists, leaving the document as it was', () => {
    const document = { id: 'x', a: { b: 1, c: 2 }, hops: [{ href: 'h1', rel: 'full' }, { href: 'h2' }, 'plain'], n: null };
    const before = JSON.stringify(document);
    assert.deepEqual(project(document, { paths: [['a', 'b'], ['hops', 'href'], ['n'], ['missing', 'x']], except: true }), { id: 'x', a: { c: 2 }, hops: [{ rel: 'full' }, {}, 'plain'] });
    assert.equal(JSON.stringify(document), before);
  });

  it('projection of __proto__ defines a member, not a prototype', () => {
    const projected = project(JSON.parse('{"__proto__": {"polluted": true}}'), { paths: [['__proto__']], except: false });
    assert.equal(Object.getPrototypeOf(projected), Object.prototype);
    const kept = project(JSON.parse('{"__proto__": {"polluted": true, "other": 1}, "a": 1}'), { paths: [['__proto__', 'other'], ['a']], except: true });
    assert.equal(Object.getPrototypeOf(kept), Object.prototype);
    assert.deepEqual(Object.keys(kept), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
