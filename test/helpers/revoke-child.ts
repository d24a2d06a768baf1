/**
 * A separate process that revokes an access in a shared PostgreSQL, for
 * test/adapters/multiprocess.test.ts: "a token revoked through one process is refused by the others".
 *
 * Usage: node --import tsx test/helpers/revoke-child.ts <connection string> <schema> <client id>
 * Prints `REVOKED <access id>` and exits 0.
 */
import { postgresStorage } from '../../adapters/sql/postgres';
import { AccessManager } from '../../src/index';

const [connectionString, schema, clientId] = process.argv.slice(2);
if (!connectionString || !schema || !clientId) {
  console.error('usage: revoke-child.ts <connection string> <schema> <client id>');
  process.exit(2);
}
const storage = await postgresStorage({ connectionString, schema });
try {
  const access = await storage.accesses.getByClientId(clientId);
  if (!access) throw new Error(`no access with client id ${clientId}`);
  await new AccessManager({ storage }).revokeAccess(access.id);
  console.log(`REVOKED ${access.id}`);
} finally {
  await storage.close();
}
