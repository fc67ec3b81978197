"""A zeep client generated from the served WSDL (argv[1] + '?wsdl') calls as the DN argv[2],
given through zeep's ordinary header argument (`_soapheaders`): createUser for that DN, then
createObject. Prints each operation's status as JSON; test/soap/generated-clients.test.ts runs it."""
import json
import sys

import zeep

url, dn = sys.argv[1], sys.argv[2]
service = zeep.Client(url + '?wsdl').service
identity = {'Username': dn}
user = service.createUser(catalogUser=[{'userId': dn}], errorDeliveryMethod='DIRECT', _soapheaders=identity)
project = service.createObject(catalogData=[{'objectId': 'zeep-project', 'objectClass': 'PROJECT'}], errorDeliveryMethod='DIRECT', _soapheaders=identity)
print(json.dumps({'createUser': user['status'], 'createObject': project['status']}))
