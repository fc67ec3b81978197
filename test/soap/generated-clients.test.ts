import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import soap from 'soap';
import { DIRECT, startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { projectRoot } from '../helpers/server.js';

const run = promisify(execFile);
/** Debian's python3 with python3-zeep (`apt-get install python3-zeep`); a pyenv python earlier on PATH lacks it. */
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => !p.startsWith('/') || existsSync(p))!;

async function zeepAvailable(): Promise<boolean> {
  try {
    await run(PYTHON, ['-c', 'import zeep']);
    return true;
  } catch {
    return false;
  }
}

/**
 * The served WSDL declares the identity header (a `Username` header block) in its binding, so
 * clients generated from `/catalog?wsdl` pass the caller's DN through their ordinary API for
 * headers, without writing XML by hand: zeep's `_soapheaders` (zeep refuses headers the binding
 * does not declare), and node-soap's addSoapHeader with an object, in the namespace of the
 * schema that declares the element.
 */
describe('clients generated from /catalog?wsdl send the identity header', function () {
  this.timeout(60_000);
  let catalog: CatalogServer;
  before(async () => {
    catalog = await startCatalog();
  });
  after(async () => {
    await catalog.stop();
  });

  it('node-soap: the header element from the WSDL, the DN as an object', async () => {
    const dn = 'CN=node-soap generated';
    const client = await soap.createClientAsync(`${catalog.url}?wsdl`);
    // The schema of the WSDL that declares the header's element gives its namespace.
    const schemas = (client as unknown as { wsdl: { definitions: { schemas: Record<string, { $targetNamespace: string; elements: Record<string, unknown> }> } } }).wsdl.definitions.schemas;
    const declaring = Object.values(schemas).find((schema) => schema.elements.Username !== undefined);
    assert.ok(declaring, 'the WSDL declares the Username header element');
    client.addSoapHeader({ Username: dn }, '', 'id', declaring.$targetNamespace);
    const [user] = (await client.createUserAsync({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT })) as [{ catalogOperationStatus: { status: string } }];
    assert.equal(user.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL', JSON.stringify(user));
    const [project] = (await client.createObjectAsync({ catalogData: [{ objectId: 'node-soap-project', objectClass: 'PROJECT' }], errorDeliveryMethod: DIRECT })) as [{ catalogOperationStatus: { status: string } }];
    assert.equal(project.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL', `${JSON.stringify(project)}\n${String(client.lastRequest)}`);
  });

  it('zeep: the header through _soapheaders', async function () {
    if (!(await zeepAvailable())) {
      if (process.env.CI === 'true') assert.fail('python3-zeep is not installed (apt-get install python3-zeep)');
      this.skip();
    }
    const { stdout } = await run(PYTHON, [path.join(projectRoot, 'test/soap/zeep-call.py'), catalog.url, 'CN=zeep generated']);
    assert.deepEqual(JSON.parse(stdout), { createUser: 'OPERATION_SUCCESSFUL', createObject: 'OPERATION_SUCCESSFUL' });
  });
});
