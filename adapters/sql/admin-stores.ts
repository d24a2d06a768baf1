import { ConflictError } from '../../src/errors';
import type { AccountRecord, AccountStore } from '../../src/storage/accounts';
import type { AuditEntry, AuditStore, AuditWrite } from '../../src/storage/audit';
import type { CatalogSettingsRecord, CatalogSettingsStore } from '../../src/storage/catalog-settings';
import type { Row, SqlDriver } from './driver';

const json = (text: unknown) => (text === null || text === undefined ? null : Object.freeze(JSON.parse(text as string)));

function account(row: Row): AccountRecord {
  return Object.freeze({
    id: row.id as string,
    createdAt: Number(row.created_at),
    defaultEnvironment: (row.default_environment as string | null) ?? null,
  });
}

function settings(row: Row): CatalogSettingsRecord {
  return Object.freeze({
    identifier: row.identifier as string,
    syncIntervalMs: row.sync_interval_ms === null || row.sync_interval_ms === undefined ? null : Number(row.sync_interval_ms),
    search: json(row.search),
    updatedAt: Number(row.updated_at),
  });
}

function entry(row: Row): AuditEntry {
  return Object.freeze({
    seq: Number(row.seq),
    actor: row.actor as string,
    action: row.action as string,
    target: row.target as string,
    time: Number(row.time),
    outcome: row.outcome as string,
    detail: json(row.detail),
  });
}

/** Accounts over SQL. */
export class SqlAccountStore implements AccountStore {
  constructor(private readonly db: SqlDriver) {}

  async create(a: AccountRecord): Promise<void> {
    try {
      await this.db.exec('INSERT INTO accounts (id, created_at, default_environment) VALUES (?, ?, ?)', [
        a.id,
        a.createdAt,
        a.defaultEnvironment,
      ]);
    } catch (error) {
      if (this.db.isUniqueViolation(error)) throw new ConflictError(`account "${a.id}" exists`);
      throw error;
    }
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM accounts WHERE id = ?', [id]);
    return row && account(row);
  }

  async list(limit: number): Promise<AccountRecord[]> {
    const order = this.db.dialect === 'postgres' ? 'id COLLATE "C"' : 'id';
    return (await this.db.query(`SELECT * FROM accounts ORDER BY ${order} LIMIT ?`, [limit])).map(account);
  }

  async setDefaultEnvironment(id: string, environment: string | null): Promise<boolean> {
    return (await this.db.exec('UPDATE accounts SET default_environment = ? WHERE id = ?', [environment, id])) > 0;
  }
}

/** Catalog settings over SQL, one row per catalog, the search settings as JSON text. */
export class SqlCatalogSettingsStore implements CatalogSettingsStore {
  constructor(private readonly db: SqlDriver) {}

  async get(identifier: string): Promise<CatalogSettingsRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM catalog_settings WHERE identifier = ?', [identifier]);
    return row && settings(row);
  }

  async put(r: CatalogSettingsRecord): Promise<void> {
    await this.db.exec(
      'INSERT INTO catalog_settings (identifier, sync_interval_ms, search, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (identifier) DO UPDATE SET sync_interval_ms = excluded.sync_interval_ms, search = excluded.search, updated_at = excluded.updated_at',
      [r.identifier, r.syncIntervalMs, r.search === null ? null : JSON.stringify(r.search), r.updatedAt],
    );
  }

  async list(): Promise<CatalogSettingsRecord[]> {
    const order = this.db.dialect === 'postgres' ? 'identifier COLLATE "C"' : 'identifier';
    return (await this.db.query(`SELECT * FROM catalog_settings ORDER BY ${order}`)).map(settings);
  }
}

/** The audit log over SQL: an append-only table read newest first by its sequence. */
export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: SqlDriver) {}

  async append(e: AuditWrite): Promise<AuditEntry> {
    const [row] = await this.db.query(
      'INSERT INTO audit_log (actor, action, target, time, outcome, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
      [e.actor, e.action, e.target, e.time, e.outcome, e.detail === null ? null : JSON.stringify(e.detail)],
    );
    return Object.freeze({ ...e, seq: Number(row!.seq) });
  }

  async list(options: { before?: number; limit: number }): Promise<AuditEntry[]> {
    const { before, limit } = options;
    const rows =
      before === undefined
        ? await this.db.query('SELECT * FROM audit_log ORDER BY seq DESC LIMIT ?', [limit])
        : await this.db.query('SELECT * FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?', [before, limit]);
    return rows.map(entry);
  }
}
