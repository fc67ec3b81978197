import assert from 'node:assert/strict';
import type { Answer } from '../helpers/http.js';
import { blippHeaders, msClientHeaders } from '../helpers/unis-clients.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { wire } from '../helpers/wire.js';

/**
 * BLiPP (periscope-ps/blipp@002d08e), the measurement agent, as unis-clients.md §2.2 records it:
 * every call through `PeriscopeClient.do_req` with python-requests; `Content-Type:
 * application/perfsonar+json profile=<schema>` without `;` where the path's first segment has a
 * schema, no such headers otherwise (measurements); the body is always `json.dumps(data)`, so a
 * GET carries `null`; query values are concatenated raw. Any 4xx is "not found" to BLiPP (None),
 * which stops it where it needs an answer.
 */
const SCHEMAS: Record<string, string> = {
  nodes: 'http://unis.crest.iu.edu/schema/20160630/node#',
  ports: 'http://unis.crest.iu.edu/schema/20160630/port#',
  services: 'http://unis.crest.iu.edu/schema/20160630/service#',
  metadata: 'http://unis.crest.iu.edu/schema/20160630/metadata#',
};
const DATUM = 'http://unis.crest.iu.edu/schema/20160630/datum#';

describe('UNIS clients: BLiPP', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  /** PeriscopeClient.do_req: headers from the first path segment, the body json.dumps(data). */
  const doReq = async (method: string, path: string, data: unknown = null): Promise<Answer> => {
    // _url_schema_headers: the host goes, a trailing slash goes, the schema comes from the first segment.
    const full = path.startsWith('http') ? path.slice(server.url.length) : path;
    const target = full.endsWith('/') ? full.slice(0, -1) : full;
    const first = target.split('/')[1]!;
    const schema = SCHEMAS[target.includes('?') ? first.slice(0, target.indexOf('?') - 1) : first];
    if (schema && data !== null && typeof data === 'object' && !Array.isArray(data)) (data as Record<string, unknown>).$schema ??= schema;
    const answer = await wire(server.url, { method: method.toUpperCase(), target, headers: blippHeaders(schema), body: JSON.stringify(data) });
    // http.handle: a 4xx is None to BLiPP, a 5xx an exception: neither may happen in this flow.
    assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${target} → ${answer.status} ${answer.text}`);
    return answer;
  };

  it('registers its node and service, its measurements and metadata, and its ports, then keeps them fresh', async () => {
    const urn = 'urn:ogf:network:domain=blipp.example.net:node=host1:';
    // conf._setup_node: find the node by urn, else create it.
    assert.deepEqual((await doReq('get', `/nodes?urn=${urn}`)).body, []);
    const node = (await doReq('post', '/nodes', { $schema: SCHEMAS.nodes, name: 'host1.blipp.example.net', urn })).body;
    assert.equal((await doReq('get', `/nodes?urn=${urn}`)).body[0].id, node.id);

    // conf._setup_service: look for the service, PUT the merged config, else POST it.
    const config: Record<string, any> = {
      $schema: SCHEMAS.services,
      status: 'ON',
      serviceType: 'ps:tools:blipp',
      ttl: 600,
      name: 'blipp',
      properties: {
        configurations: {
          unis_url: server.url,
          unis_max_backoff: 3600,
          unis_poll_interval: 300,
          use_ssl: '',
          ssl_cafile: '',
          probe_defaults: { collection_schedule: 'builtins.simple', schedule_params: { every: 2 }, collection_size: 10000000, collection_ttl: 1500000, reporting_params: 1, reporting_tolerance: 10 },
          probes: { cpu: { probe_module: 'cpu', $schema: 'http://unis.crest.iu.edu/schema/ext/blipp/cpu#' } },
        },
      },
      runningOn: { href: node.selfRef, rel: 'full' },
    };
    assert.deepEqual((await doReq('get', `/services?name=blipp&runningOn.href=${node.selfRef}&limit=2`)).body, []);
    const service = (await doReq('post', '/services', config)).body;
    Object.assign(config, service);
    for (const found of (await doReq('get', `/services?name=blipp&runningOn.href=${node.selfRef}&limit=2`)).body) {
      assert.equal((await doReq('get', `/services/${found.id}`)).body.id, service.id);
    }
    // unis_client.put deletes ts; the merged config goes back whole.
    delete config.ts;
    const put = await doReq('put', `/services/${service.id}`, config);
    assert.equal(put.status, 201);

    // blipp_conf.initialize: the measurements of this service feed get_most_recent(), which needs a list.
    const initial = (await doReq('get', `/measurements?service=${config.selfRef}`)).body;
    assert.ok(Array.isArray(initial) && initial.length === 0);
    // _post_measurement: no schema for "measurements", so no Content-Type at all.
    const measurement = (await doReq('post', '/measurements', { service: config.selfRef, configuration: { probe_module: 'cpu', name: 'cpu' }, eventTypes: ['ps:tools:blipp:linux:cpu:utilization:user'] })).body;
    assert.equal(measurement.service, config.selfRef);
    assert.equal((await doReq('get', `/measurements?service=${config.selfRef}`)).body.length, 1);

    // unis_client.find_or_create_metadata.
    assert.deepEqual((await doReq('get', `/metadata?parameters.measurement.href=${measurement.selfRef}`)).body, []);
    const metadata = (await doReq('post', '/metadata', {
      $schema: SCHEMAS.metadata,
      subject: { href: node.selfRef, rel: 'full' },
      eventType: 'ps:tools:blipp:linux:cpu:utilization:user',
      parameters: { datumSchema: DATUM, measurement: { href: measurement.selfRef, rel: 'full' } },
    })).body;
    assert.equal(typeof metadata.id, 'string');
    assert.equal((await doReq('get', `/metadata?parameters.measurement.href=${measurement.selfRef}`)).body[0].id, metadata.id);

    // unis_client.post_port, then the node gets the port and is PUT back whole.
    const port = (await doReq('post', '/ports', { properties: { mac: { type: 'mac', address: '52:54:00:12:34:56' }, ipv4: { type: 'ipv4', address: '10.0.0.5' } }, name: 'eth0', capacity: 1000000000, nodeRef: urn.slice(0, -1), urn: `${urn}port=eth0` })).body;
    const nodeRep = (await doReq('get', node.selfRef)).body;
    (nodeRep.ports ??= []).push({ href: port.selfRef, rel: 'full' });
    delete nodeRep.ts;
    await doReq('put', nodeRep.selfRef, nodeRep);
    assert.deepEqual((await doReq('get', node.selfRef)).body.ports, [{ href: port.selfRef, rel: 'full' }]);

    // conf.refresh: ts + ttl (µs) against the clock.
    const refreshed = (await doReq('get', `/services/${service.id}`)).body;
    assert.ok(refreshed.ts + refreshed.ttl * 1e6 > Date.now() * 1000);

    // blipp_conf.refresh, after the measurement was deleted: the kept representation is posted again.
    await doReq('delete', `/measurements/${measurement.id}`);
    assert.deepEqual((await doReq('get', `/measurements?service=${config.selfRef}`)).body, []);
    const reposted = await doReq('post', '/measurements/', measurement);
    assert.equal(reposted.status, 201);
    assert.equal(reposted.body.id, measurement.id);
  });

  /**
   * conf._setup_service asks for its own service entries with `limit=2` and keeps the most
   * recent: UNIS HEAD lists newest first (rest-contract §5, revised 2026-11-29), so with two
   * entries (a second BLiPP start that found none in time) the first of the answer is the newer.
   */
  it('finds its most recent service entry first among limit=2', async () => {
    const node = (await doReq('post', '/nodes', { $schema: SCHEMAS.nodes, name: 'host2.blipp.example.net', urn: 'urn:ogf:network:domain=blipp.example.net:node=host2:' })).body;
    const entry = (n: number) => ({ $schema: SCHEMAS.services, name: 'blipp', serviceType: 'ps:tools:blipp', status: 'ON', ttl: 600, runningOn: { href: node.selfRef, rel: 'full' }, properties: { start: n } });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await doReq('post', '/services', entry(n))).body.id);
    const query = `/services?name=blipp&runningOn.href=${node.selfRef}`;
    assert.deepEqual((await doReq('get', `${query}&limit=2`)).body.map((s: { id: string }) => s.id), [ids[2], ids[1]]);
    assert.deepEqual((await doReq('get', `${query}&limit=1`)).body.map((s: { id: string }) => s.id), [ids[2]]);
    assert.deepEqual((await doReq('get', `${query}&limit=2&skip=1`)).body.map((s: { id: string }) => s.id), [ids[1], ids[0]]);
    // An update makes the oldest the newest; limit=0 is every entry (as MongoDB reads it).
    await doReq('put', `/services/${ids[0]}`, { ...entry(0), id: ids[0] });
    assert.deepEqual((await doReq('get', `${query}&limit=0`)).body.map((s: { id: string }) => s.id), [ids[0], ids[2], ids[1]]);
  });

  it('runs the registration probe: find by accessPoint and serviceType, POST, then PUT partial descriptions without id', async () => {
    const accessPoint = 'ibp://depot.example.net:6714';
    assert.deepEqual((await doReq('get', `/services?accessPoint=${accessPoint}&serviceType=ibp_server`)).body, []);
    const description = () => ({ $schema: SCHEMAS.services, serviceType: 'ibp_server', status: 'ON', name: 'depot', accessPoint, runningOn: { href: `${server.url}/nodes/n1`, rel: 'full' }, ttl: 600 });
    const created = (await doReq('post', '/services', description())).body;
    assert.equal((await doReq('get', `/services?accessPoint=${accessPoint}&serviceType=ibp_server`)).body[0].id, created.id);
    for (let cycle = 0; cycle < 3; cycle++) {
      const updated = await doReq('put', `/services/${created.id}`, { ...description(), status: cycle % 2 ? 'ON' : 'OFF' });
      assert.equal(updated.body.id, created.id);
    }
    assert.equal((await doReq('get', `/services/${created.id}`)).body.status, 'OFF');
  });
  /**
   * The measurement store, as `ms_client.MSInstance` (blipp/ms_client.py) feeds it from
   * `collector.report()`: `_check_mids` asks `GET /events?mids=<mid>` through `PeriscopeClient.get`
   * (no schema for `events`: requests' own headers, the body `null`) and registers a falsy answer
   * with `POST /events {metadata_URL, collection_size, ttl}`; then `POST /data [{mid, data: [{ts,
   * value}]}]`. Its own headers: `content-type: application/perfsonar+json profile=<datum or data
   * schema>` and an accept of any type. Bodies are Python's `json.dumps` (`", "` and `": "`), and `ts` is
   * `time.time() * 10e5`, a float. A report that failed is sent again with the next one.
   */
  it('feeds the measurement store as ms_client does, and the points read back', async () => {
    const msHeaders = msClientHeaders;
    const plainHeaders = msClientHeaders(undefined);
    const send = async (method: string, target: string, headers: [string, string][], body: string): Promise<Answer> => {
      const answer = await wire(server.url, { method, target, headers, body });
      assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${target} → ${answer.status} ${answer.text}`);
      return answer;
    };
    const node = (await doReq('post', '/nodes', { $schema: SCHEMAS.nodes, name: 'ms.blipp.example.net', urn: 'urn:ogf:network:domain=blipp.example.net:node=ms:' })).body;
    const metadata = (await doReq('post', '/metadata', { $schema: SCHEMAS.metadata, subject: { href: node.selfRef, rel: 'full' }, eventType: 'ps:tools:blipp:linux:cpu:utilization:user', parameters: { datumSchema: DATUM } })).body;
    const mid = metadata.id as string;

    // _check_mids: nothing registered yet, so the answer is falsy ([]), and it registers.
    assert.deepEqual((await send('GET', `/events?mids=${mid}`, plainHeaders, 'null')).body, []);
    const registered = await send('POST', '/events', msHeaders(DATUM), `{"ttl": 1500000, "collection_size": 10000000, "metadata_URL": "${server.url}/metadata/${mid}"}`);
    assert.equal(registered.status, 201);
    assert.equal(registered.headers.get('location'), `${server.url}/data/${mid}`);

    // collector.report(): one batch per report; the second report repeats the first (it failed) and adds one.
    const now = Date.now() / 1000;
    const datum = (seconds: number, value: number) => `{"ts": ${seconds * 10e5}, "value": ${value}}`;
    const first = `[{"mid": "${mid}", "data": [${datum(now - 2, 12.5)}, ${datum(now - 1, 13.0)}]}]`;
    assert.equal((await send('POST', '/data', msHeaders('http://unis.crest.iu.edu/schema/20160630/data#'), first)).status, 201);
    const second = `[{"mid": "${mid}", "data": [${datum(now - 2, 12.5)}, ${datum(now - 1, 13.0)}, ${datum(now, 14.25)}]}]`;
    const again = await send('POST', '/data', msHeaders('http://unis.crest.iu.edu/schema/20160630/data#'), second);
    assert.deepEqual(again.body.series, [{ mid, stored: 1, duplicates: 2, expired: 0, dropped: 0 }]);

    // The next _check_mids finds the series; the points read back with its headers (UNIS form:
    // oldest first, as UNIS answered them), ts as sent.
    const [summary] = (await send('GET', `/events?mids=${mid}`, plainHeaders, 'null')).body;
    assert.equal(summary.mid, mid);
    assert.equal(summary.count, 3);
    const points = (await send('GET', `/data/${mid}`, plainHeaders, 'null')).body as { ts: number; value: number }[];
    assert.deepEqual(points.map((p) => p.value), [12.5, 13, 14.25]);
    assert.deepEqual(points.map((p) => p.ts), [(now - 2) * 10e5, (now - 1) * 10e5, now * 10e5]);
  });
});
