/**
 * One soak run's state, shared by its virtual clients: what it loads and as whom, the tallies per
 * operation, the first errors, and the deadline. Every request goes through `step`, which counts
 * it, times it and has its answer checked.
 */
import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:http';
import { timedRequest, type TimedResponse, type TimedSpec } from '../harness/client.js';

/** Per operation kind: every latency (ms) and the errors. */
export class Tally {
  readonly times: number[] = [];
  requests = 0;
  errors = 0;
}

export const OPERATIONS = [
  'SOAP doesUserExist/createUser (setup)',
  'REST POST node',
  'REST GET node',
  'REST PATCH node (merge patch)',
  'REST GET node ?ts= (first version)',
  'REST query ?name=',
  'REST query ?location.institution=…&limit=50',
  'REST DELETE node',
  'REST GET deleted node (404)',
  'REST POST 50 nodes',
  'SOAP checkStatus',
  'SOAP createObject (9 objects)',
  'SOAP objectIdQuery (9 objects)',
  'SOAP context query',
  'SOAP deleteObject',
  'SOAP objectIdQuery of deleted (fatal)',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const SETUP: Operation = 'SOAP doesUserExist/createUser (setup)';

export interface Target {
  readonly base: URL;
  readonly auth: Readonly<Record<string, string>>;
  /** The pid whose process tree's RSS is the server's memory, when known. */
  readonly pid: number | undefined;
}

export interface Client {
  readonly k: number;
  readonly agent: Agent;
  /** Ids of this client's live nodes, oldest first. */
  readonly nodes: string[];
  /** Rounds of this client's live project trees, oldest first. */
  readonly projects: number[];
  round: number;
}

export interface SessionOptions {
  readonly target: Target;
  /** The caller the SOAP requests name, and the catalog user the setup creates. */
  readonly dn: string;
  /** Live nodes a client keeps before it deletes its oldest (its share of --max-nodes). */
  readonly nodesPerClient: number;
  /** Live project trees a client keeps before it deletes its oldest (its share of --max-projects). */
  readonly projectsPerClient: number;
}

const ERRORS_KEPT = 20;

/** The deadline passed: the round ends, and that is not an error. */
export class Stop extends Error {}
/** A request failed; it is counted already, and the rest of the round depends on it. */
export class Failed extends Error {}

export function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function expectStatus(r: TimedResponse, expected: number): void {
  expect(r.status === expected, `expected HTTP ${expected}`);
}

export class Session {
  readonly target: Target;
  readonly dn: string;
  readonly nodesPerClient: number;
  readonly projectsPerClient: number;
  /** Tags every id and name of the run, so runs against one server never collide. */
  readonly tag = `soak-${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  readonly tallies = new Map<Operation, Tally>(OPERATIONS.map((o) => [o, new Tally()]));
  /** The first errors, for the person reading the report; all are counted. */
  readonly firstErrors: string[] = [];
  /** The run's deadline (performance.now()); no request starts after it. Set when the load starts. */
  deadline = Number.POSITIVE_INFINITY;

  constructor(options: SessionOptions) {
    this.target = options.target;
    this.dn = options.dn;
    this.nodesPerClient = options.nodesPerClient;
    this.projectsPerClient = options.projectsPerClient;
  }

  /**
   * One request of `operation`: counted, timed, and its answer given to `check`, which returns what
   * the round needs or throws when the answer is wrong.
   */
  async step<T>(client: Client, operation: Operation, pathAndQuery: string, spec: TimedSpec, check: (r: TimedResponse) => T): Promise<T> {
    if (performance.now() >= this.deadline) throw new Stop();
    const tally = this.tallies.get(operation)!;
    tally.requests++;
    let response: TimedResponse;
    try {
      response = await timedRequest(client.agent, new URL(pathAndQuery, this.target.base), { ...spec, headers: { ...this.target.auth, ...spec.headers } });
    } catch (error) {
      return this.failed(tally, operation, pathAndQuery, `connection error: ${(error as Error).message}`);
    }
    tally.times.push(response.ms);
    try {
      return check(response);
    } catch (error) {
      // A SOAP answer is shown from inside its Body: the envelope says nothing.
      const shown = response.body.replace(/^[\s\S]*?<soapenv:Body>/, '').slice(0, 300);
      return this.failed(tally, operation, pathAndQuery, `${(error as Error).message}; HTTP ${response.status}: ${shown}`);
    }
  }

  private failed(tally: Tally, operation: Operation, pathAndQuery: string, message: string): never {
    tally.errors++;
    if (this.firstErrors.length < ERRORS_KEPT) this.firstErrors.push(`${operation} (${pathAndQuery}): ${message}`);
    throw new Failed(message);
  }
}
