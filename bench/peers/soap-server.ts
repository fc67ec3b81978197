/**
 * The peer for SOAP: the `soap` package's own server (`soap.listen`) on the catalog's WSDL, whose
 * handlers return canned answers from memory: the very answers topocat gave, as node-soap's
 * client parsed them, so node-soap writes the same response document back.
 *
 *   PORT, PEER_ANSWERS_FILE: JSON {operation: answer object}
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import soap from 'soap';
import { projectRoot } from '../harness/processes.js';

const answers = JSON.parse(readFileSync(process.env.PEER_ANSWERS_FILE!, 'utf8')) as Record<string, object>;
const operations = Object.fromEntries(Object.entries(answers).map(([operation, answer]) => [operation, () => answer]));

const wsdlFile = path.join(projectRoot, 'wsdl/catalog.wsdl');
const server = createServer((_req, res) => {
  // soap.listen answers its own path; anything else is not ours.
  res.statusCode = 404;
  res.end();
});
soap.listen(server, {
  path: '/catalog',
  services: { CatalogService: { CatalogPort: operations } },
  xml: readFileSync(wsdlFile, 'utf8'),
  uri: wsdlFile,
  suppressStack: true,
  // soap.listen takes over the request listener only once the WSDL is read (asynchronously):
  // listening before that answered the bench's first POST with the 404 above on a loaded CI machine.
  callback: (error: unknown) => {
    if (error) throw error;
    server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  },
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
