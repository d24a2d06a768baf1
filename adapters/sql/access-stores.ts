import { ConflictError } from '../../src/errors';
import type { AccessRecord, AccessStore } from '../../src/storage/accesses';
import type { TokenRecord, TokenStore } from '../../src/storage/tokens';
import type { Row, SqlDriver } from './driver';

function access(row: Row): AccessRecord {
  return Object.freeze({
    id: row.id as string,
    accountId: row.account_id as string,
    name: row.name as string,
    environments: Object.freeze(JSON.parse(row.environments as string) as string[]),
    actions: Object.freeze(JSON.parse(row.actions as string) as string[]),
    clientId: row.client_id as string,
    secretHash: row.secret_hash as string,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null || row.revoked_at === undefined ? null : Number(row.revoked_at),
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : Number(row.last_used_at),
  });
}

function token(row: Row): TokenRecord {
  return Object.freeze({
    tokenHash: row.token_hash as string,
    accessId: row.access_id as string,
    accountId: row.account_id as string,
    clientId: row.client_id as string,
    actions: Object.freeze(JSON.parse(row.actions as string) as string[]),
    environments: Object.freeze(JSON.parse(row.environments as string) as string[]),
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
  });
}

/** Accesses over SQL; revocation is one UPDATE, read by every instance on its next check. */
export class SqlAccessStore implements AccessStore {
  constructor(private readonly db: SqlDriver) {}

  async create(a: AccessRecord): Promise<void> {
    try {
      await this.db.exec(
        'INSERT INTO accesses (id, account_id, name, environments, actions, client_id, secret_hash, created_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          a.id,
          a.accountId,
          a.name,
          JSON.stringify(a.environments),
          JSON.stringify(a.actions),
          a.clientId,
          a.secretHash,
          a.createdAt,
          a.revokedAt,
          a.lastUsedAt ?? null,
        ],
      );
    } catch (error) {
      if (this.db.isUniqueViolation(error)) throw new ConflictError('access id or client id is taken');
      throw error;
    }
  }

  async get(id: string): Promise<AccessRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM accesses WHERE id = ?', [id]);
    return row && access(row);
  }

  async getByClientId(clientId: string): Promise<AccessRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM accesses WHERE client_id = ?', [clientId]);
    return row && access(row);
  }

  async list(accountId: string): Promise<AccessRecord[]> {
    return (await this.db.query('SELECT * FROM accesses WHERE account_id = ? ORDER BY created_at, id', [accountId])).map(access);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    return (await this.db.exec('UPDATE accesses SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id])) > 0;
  }

  async rotateSecret(id: string, secretHash: string): Promise<boolean> {
    return (await this.db.exec('UPDATE accesses SET secret_hash = ? WHERE id = ? AND revoked_at IS NULL', [secretHash, id])) > 0;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.exec('UPDATE accesses SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [at, id, at]);
  }
}

/** Tokens over SQL, keyed by their hash. */
export class SqlTokenStore implements TokenStore {
  constructor(private readonly db: SqlDriver) {}

  async save(t: TokenRecord): Promise<void> {
    try {
      await this.db.exec(
        'INSERT INTO tokens (token_hash, access_id, account_id, client_id, actions, environments, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          t.tokenHash,
          t.accessId,
          t.accountId,
          t.clientId,
          JSON.stringify(t.actions),
          JSON.stringify(t.environments),
          t.issuedAt,
          t.expiresAt,
        ],
      );
    } catch (error) {
      if (this.db.isUniqueViolation(error)) throw new ConflictError('token hash collision');
      throw error;
    }
  }

  async get(tokenHash: string): Promise<TokenRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM tokens WHERE token_hash = ?', [tokenHash]);
    return row && token(row);
  }

  async deleteExpired(now: number): Promise<number> {
    return this.db.exec('DELETE FROM tokens WHERE expires_at < ?', [now]);
  }
}
