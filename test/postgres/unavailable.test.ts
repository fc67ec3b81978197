import assert from 'node:assert/strict';
import { postgresErrors } from '../../server/storage/dialects/postgres/errors.js';
import { unconfirmedCommit } from '../../server/storage/dialects/postgres/merged-writes.js';
import { NotWritable, NoWritableHost } from '../../server/storage/dialects/postgres/primary.js';
import { engine } from '../helpers/database.js';

/** An error as the pg driver or knex raises it. */
function failure(fields: { message?: string; code?: string; name?: string }): Error {
  return Object.assign(new Error(fields.message ?? 'failed'), fields);
}

/**
 * Which errors mean "the database cannot serve now" (503 with Retry-After) and which are faults
 * of the query (never 503). The outage test meets refused connections, terminated sessions and
 * the acquire timeout through HTTP; this table covers the conditions it cannot stage.
 */
describe('PostgreSQL: which errors mean the database is unavailable', function () {
  before(function () {
    if (engine !== 'postgres') this.skip();
  });

  const unavailable: [string, unknown][] = [
    ['connection refused', failure({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' })],
    ['connection reset', failure({ code: 'ECONNRESET' })],
    // Five capitals, as a SQLSTATE: a write to a connection its server ended (a standby's conflict with recovery).
    ['broken pipe', failure({ code: 'EPIPE', message: 'write EPIPE' })],
    ['host unreachable', failure({ code: 'EHOSTUNREACH' })],
    ['name not resolved', failure({ code: 'ENOTFOUND' })],
    ['no socket file', failure({ code: 'ENOENT', message: 'connect ENOENT /var/run/postgresql/.s.PGSQL.5432' })],
    ['refused on every address of a name', Object.assign(new AggregateError([failure({ code: 'ECONNREFUSED' }), failure({ code: 'ECONNREFUSED' })]), { code: 'ECONNREFUSED' })],
    ['57P01 admin shutdown', failure({ code: '57P01', message: 'terminating connection due to administrator command' })],
    ['57P02 crash shutdown', failure({ code: '57P02' })],
    ['57P03 cannot connect now', failure({ code: '57P03', message: 'the database system is starting up' })],
    ['08006 connection failure', failure({ code: '08006' })],
    ['08001 cannot establish a connection', failure({ code: '08001' })],
    ['53300 too many connections', failure({ code: '53300', message: 'sorry, too many clients already' })],
    ['53100 disk full', failure({ code: '53100' })],
    ['58030 I/O error', failure({ code: '58030' })],
    ['a session that ended under a query', failure({ message: 'select 1 - Connection terminated unexpectedly' })],
    ['a connect timeout', failure({ message: 'Connection terminated due to connection timeout' })],
    ['a client closed by an earlier error', failure({ message: 'Client has encountered a connection error and is not queryable' })],
    ['knex acquire timeout', failure({ name: 'KnexTimeoutError', message: 'Knex: Timeout acquiring a connection. The pool is probably full.' })],
    ['a cause that is one of these', new Error('wrapped', { cause: failure({ code: '57P01' }) })],
    // rest-contract §16: what a failover answers.
    ['25006 read-only transaction (a standby, a node being promoted)', failure({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' })],
    ['55000 recovery is in progress (a primary\'s function on a standby)', failure({ code: '55000', message: 'recovery is in progress' })],
    ['57P03 in recovery mode', failure({ code: '57P03', message: 'the database system is in recovery mode' })],
    ['57P01 shutting down', failure({ code: '57P01', message: 'terminating connection due to administrator command' })],
    ['a host found not to take writes', new NotWritable('127.0.0.1:5432', 'in recovery (a standby)')],
    ['no host of the list takes writes', new NoWritableHost('127.0.0.1:5432: refuses connections')],
  ];
  for (const [name, error] of unavailable) {
    it(`unavailable: ${name}`, () => assert.equal(postgresErrors.isUnavailable(error), true));
  }

  const faults: [string, unknown][] = [
    ['22P02 invalid text representation', failure({ code: '22P02' })],
    ['22021 invalid byte sequence', failure({ code: '22021' })],
    ['42601 syntax error', failure({ code: '42601' })],
    ['42P01 undefined table', failure({ code: '42P01' })],
    ['23505 unique violation', failure({ code: '23505' })],
    ['40P01 deadlock', failure({ code: '40P01' })],
    ['57014 query cancelled', failure({ code: '57014' })],
    ['55000 for another reason', failure({ code: '55000', message: 'cannot delete from table because it does not have a replica identity' })],
    ['a query error whose text quotes a connection message', failure({ code: '22P02', message: "select 'Connection terminated unexpectedly'::int - invalid input syntax" })],
    ['an error without code', new Error('boom')],
    ['not an error at all', 'a string'],
    ['nothing', undefined],
  ];
  for (const [name, error] of faults) {
    it(`not unavailable: ${name}`, () => assert.equal(postgresErrors.isUnavailable(error), false));
  }

  // rest-contract §16: a write whose session was lost once sent may be stored (logged with its id); one refused stored nothing.
  const unknown: [string, unknown][] = [
    ['the session dropped', failure({ message: 'Connection terminated unexpectedly' })],
    ['the server shut down (a backend that waited for its standby is terminated so)', failure({ code: '57P01', message: 'terminating connection due to administrator command' })],
    ['the postmaster died', failure({ code: '57P02', message: 'terminating connection due to unexpected postmaster exit' })],
    ['ECONNRESET', failure({ code: 'ECONNRESET' })],
  ];
  for (const [name, error] of unknown) it(`a commit unconfirmed: ${name}`, () => assert.equal(unconfirmedCommit(error), true));
  const refused: [string, unknown][] = [
    ['25006 read-only transaction', failure({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' })],
    ['no host takes writes', new NoWritableHost('127.0.0.1:5432: refuses connections')],
    ['knex acquire timeout', failure({ name: 'KnexTimeoutError', message: 'Knex: Timeout acquiring a connection. The pool is probably full.' })],
    ['a query\'s own fault', failure({ code: '23505' })],
  ];
  for (const [name, error] of refused) it(`nothing stored: ${name}`, () => assert.equal(unconfirmedCommit(error), false));
});
