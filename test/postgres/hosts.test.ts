import assert from 'node:assert/strict';
import { parseHosts } from '../../server/storage/dialects/postgres/hosts.js';
import { describeDatabase } from '../../server/storage/dialects/urls.js';

/**
 * DATABASE_URL with several hosts, in both of libpq's forms (rest-contract §16): node-postgres
 * takes neither ("Invalid URL" for `h1:p1,h2:p2`; `?host=a,b` read as one host name), so each
 * host becomes a URL of its own, every other parameter kept.
 */
describe('PostgreSQL: DATABASE_URL with several hosts', () => {
  const cases: [string, { given: string; want: { hosts: [string, string][]; attrs?: string } }][] = [
    ['one host, as it is', { given: 'postgres://u:p@db:5433/topo?sslmode=require', want: { hosts: [['db:5433', 'postgres://u:p@db:5433/topo?sslmode=require']] } }],
    ['one host without a port', { given: 'postgres://u@db/topo', want: { hosts: [['db:5432', 'postgres://u@db/topo']] } }],
    [
      'hosts in the authority, with target_session_attrs',
      {
        given: 'postgres://u:s%40cret@h1:5432,h2:5433/topo?target_session_attrs=read-write&sslmode=prefer',
        want: { hosts: [['h1:5432', 'postgres://u:s%40cret@h1:5432/topo?sslmode=prefer'], ['h2:5433', 'postgres://u:s%40cret@h2:5433/topo?sslmode=prefer']], attrs: 'read-write' },
      },
    ],
    ['hosts in the authority, one without a port', { given: 'postgresql://u@h1,h2:6000/topo', want: { hosts: [['h1:5432', 'postgresql://u@h1/topo'], ['h2:6000', 'postgresql://u@h2:6000/topo']] } }],
    ['IPv6 hosts', { given: 'postgres://u@[::1]:5432,[fe80::2]:5433/topo', want: { hosts: [['::1:5432', 'postgres://u@[::1]:5432/topo'], ['fe80::2:5433', 'postgres://u@[fe80::2]:5433/topo']] } }],
    [
      '?host= and ?port=, one port each',
      { given: 'postgres://u@/topo?host=h1,h2&port=5432,5433&application_name=x', want: { hosts: [['h1:5432', 'postgres://u@h1:5432/topo?application_name=x'], ['h2:5433', 'postgres://u@h2:5433/topo?application_name=x']] } },
    ],
    ['?host= with one port for all', { given: 'postgres://u@/topo?host=h1,h2&port=6432', want: { hosts: [['h1:6432', 'postgres://u@h1:6432/topo'], ['h2:6432', 'postgres://u@h2:6432/topo']] } }],
    ['one host with target_session_attrs (probed)', { given: 'postgres://u@h1/topo?target_session_attrs=primary', want: { hosts: [['h1:5432', 'postgres://u@h1/topo']], attrs: 'primary' } }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const parsed = parseHosts(given, 'DATABASE_URL');
      assert.deepEqual(parsed.hosts.map((h) => [h.name, h.url]), want.hosts);
      assert.equal(parsed.sessionAttrs, want.attrs);
    });
  }

  const refused: [string, { given: string; want: RegExp }][] = [
    ['an unknown target_session_attrs', { given: 'postgres://u@h1,h2/topo?target_session_attrs=writable', want: /DATABASE_URL: target_session_attrs "writable" is none of any, read-write/ }],
    ['a port that is no number', { given: 'postgres://u@h1:54x2,h2/topo', want: /DATABASE_URL: "h1:54x2" is not host:port/ }],
    ['a port out of range', { given: 'postgres://u@h1:70000,h2/topo', want: /DATABASE_URL: port "70000" is not a number from 1 to 65535/ }],
    ['more ports than hosts', { given: 'postgres://u@/topo?host=h1,h2&port=1,2,3', want: /DATABASE_URL: 2 hosts but 3 ports/ }],
    ['an empty host in a list', { given: 'postgres://u@h1,,h2/topo', want: /DATABASE_URL: an empty host in the list of 3/ }],
  ];
  for (const [name, { given, want }] of refused) {
    it(`refused: ${name}`, () => assert.throws(() => parseHosts(given, 'DATABASE_URL'), want));
  }

  it('the start line names every host, never the password', () => {
    assert.equal(describeDatabase('postgres://u:secret@h1:5432,h2:5433/topo?schema=s1&target_session_attrs=read-write'), 'postgresql u@h1:5432,h2:5433/topo schema s1');
  });
});
