import { ConflictError } from '../../src/errors';
import { frozenCopy } from '../../src/freeze';
import type { Activation, ActivationQuery, ActivationStore } from '../../src/storage/activations';
import { NO_ASSIGNMENTS, type Assignments, type AssignmentStore } from '../../src/storage/assignments';
import type { EnvironmentRecord, EnvironmentStore, EnvironmentWrite } from '../../src/storage/environments';
import type { DecisionWrite } from '../../src/storage/storage';
import { chunks, logQuery, valuesList, type Row, type SqlDriver } from './driver';

function environment(row: Row): EnvironmentRecord {
  return frozenCopy({
    id: row.id as string,
    accountId: row.account_id as string,
    apiKeyHash: (row.api_key_hash as string | null) ?? null,
    config: JSON.parse(row.config as string),
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
  });
}

/** Environments over SQL. */
export class SqlEnvironmentStore implements EnvironmentStore {
  constructor(private readonly db: SqlDriver) {}

  async get(id: string): Promise<EnvironmentRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM environments WHERE id = ?', [id]);
    return row && environment(row);
  }

  async version(id: string): Promise<number | undefined> {
    const [row] = await this.db.query<{ version: number }>('SELECT version FROM environments WHERE id = ?', [id]);
    return row === undefined ? undefined : Number(row.version);
  }

  async list(accountId?: string): Promise<EnvironmentRecord[]> {
    const rows =
      accountId === undefined
        ? await this.db.query('SELECT * FROM environments')
        : await this.db.query('SELECT * FROM environments WHERE account_id = ?', [accountId]);
    return rows.map(environment).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async put(write: EnvironmentWrite, options: { expectedVersion?: number; now?: number } = {}): Promise<EnvironmentRecord> {
    try {
      return await this.db.transaction(async (tx) => {
        const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
        const [current] = await tx.query(`SELECT account_id, api_key_hash, version FROM environments WHERE id = ?${lock}`, [write.id]);
        if (current && current.account_id !== write.accountId)
          throw new ConflictError(`environment "${write.id}" belongs to another account`);
        const version = current ? Number(current.version) : 0;
        if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
          throw new ConflictError(`environment "${write.id}" is at version ${version}, not ${options.expectedVersion}`);
        }
        const apiKeyHash =
          write.apiKeyHash === undefined ? ((current?.api_key_hash as string | null | undefined) ?? null) : write.apiKeyHash;
        const row = [write.id, write.accountId, apiKeyHash, JSON.stringify(write.config), version + 1, options.now ?? Date.now()];
        if (current) {
          await tx.exec('UPDATE environments SET api_key_hash = ?, config = ?, version = ?, updated_at = ? WHERE id = ?', [
            ...row.slice(2),
            write.id,
          ]);
        } else {
          await tx.exec(
            'INSERT INTO environments (id, account_id, api_key_hash, config, version, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
            row,
          );
        }
        return environment({ id: row[0], account_id: row[1], api_key_hash: row[2], config: row[3], version: row[4], updated_at: row[5] });
      });
    } catch (error) {
      // Two creators of one new environment: the second insert loses.
      if (this.db.isUniqueViolation(error)) throw new ConflictError(`environment "${write.id}" was created concurrently`);
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM environments WHERE id = ?', [id])) > 0;
  }
}

const upsertAssignments = (rows: number) =>
  `INSERT INTO assignments (environment_id, visitor_id, variation_group_id, variation_id) VALUES ${valuesList(rows, 4)}
   ON CONFLICT (environment_id, visitor_id, variation_group_id) DO UPDATE SET variation_id = excluded.variation_id`;
const assignmentParams = (environmentId: string, visitorId: string, rows: readonly [string, string][]) =>
  rows.flatMap(([group, variation]) => [environmentId, visitorId, group, variation]);
const insertActivations = (rows: number) =>
  `INSERT INTO activations (environment_id, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id, timestamp) VALUES ${valuesList(rows, 7)}`;
const activationParams = (rows: readonly Activation[]) =>
  rows.flatMap((a) => [a.environmentId, a.visitorId, a.anonymousId, a.campaignId, a.variationGroupId, a.variationId, a.timestamp]);

/**
 * One decision's writes (see `Storage.writeDecision`). On PostgreSQL, assignments and
 * activations go in one statement (a data-modifying CTE: atomic, one round trip); SQLite has no
 * such statement, so it runs the two inserts in one transaction (in process: no round trip).
 */
export async function writeDecision(
  db: SqlDriver,
  assignments: SqlAssignmentStore,
  activations: SqlActivationStore,
  write: DecisionWrite,
): Promise<void> {
  const groups = write.assignments ? Object.entries(write.assignments) : [];
  const rows = write.activations ?? [];
  if (groups.length === 0) return activations.record(rows);
  if (rows.length === 0) return assignments.save(write.environmentId, write.visitorId, write.assignments!);
  const params = [...assignmentParams(write.environmentId, write.visitorId, groups), ...activationParams(rows)];
  if (db.dialect === 'postgres' && params.length <= db.maxParams) {
    await db.exec(`WITH sticky AS (${upsertAssignments(groups.length)}) ${insertActivations(rows.length)}`, params);
    return;
  }
  await db.transaction(async (tx) => {
    await new SqlAssignmentStore(tx).save(write.environmentId, write.visitorId, write.assignments!);
    await new SqlActivationStore(tx).record(rows);
  });
}

/** Sticky assignments over SQL: one row per visitor and variation group. */
export class SqlAssignmentStore implements AssignmentStore {
  constructor(private readonly db: SqlDriver) {}

  async get(environmentId: string, visitorId: string): Promise<Assignments> {
    const rows = await this.db.query<{ variation_group_id: string; variation_id: string }>(
      'SELECT variation_group_id, variation_id FROM assignments WHERE environment_id = ? AND visitor_id = ?',
      [environmentId, visitorId],
    );
    if (rows.length === 0) return NO_ASSIGNMENTS;
    const out: Record<string, string> = {};
    for (const r of rows)
      Object.defineProperty(out, r.variation_group_id, { value: r.variation_id, enumerable: true, writable: true, configurable: true });
    return Object.freeze(out);
  }

  async save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void> {
    const rows = Object.entries(assignments);
    if (rows.length === 0) return;
    const parts = chunks(rows, 4, this.db);
    // One statement is atomic by itself: a transaction only when the rows take several.
    if (parts.length === 1)
      return void (await this.db.exec(upsertAssignments(parts[0]!.length), assignmentParams(environmentId, visitorId, parts[0]!)));
    await this.db.transaction(async (tx) => {
      for (const part of parts) await tx.exec(upsertAssignments(part.length), assignmentParams(environmentId, visitorId, part));
    });
  }

  async delete(environmentId: string, visitorId: string): Promise<void> {
    await this.db.exec('DELETE FROM assignments WHERE environment_id = ? AND visitor_id = ?', [environmentId, visitorId]);
  }
}

/** The activation log over SQL. */
export class SqlActivationStore implements ActivationStore {
  constructor(private readonly db: SqlDriver) {}

  async record(activations: readonly Activation[]): Promise<void> {
    if (activations.length === 0) return;
    const parts = chunks(activations, 7, this.db);
    if (parts.length === 1) return void (await this.db.exec(insertActivations(parts[0]!.length), activationParams(parts[0]!)));
    await this.db.transaction(async (tx) => {
      for (const part of parts) await tx.exec(insertActivations(part.length), activationParams(part));
    });
  }

  async list(query: ActivationQuery): Promise<Activation[]> {
    const { sql, params } = logQuery(
      'activations',
      [
        ['environment_id = ?', query.environmentId],
        ['visitor_id = ?', query.visitorId],
        ['timestamp >= ?', query.since],
      ],
      query.limit,
    );
    const rows = await this.db.query(sql, params);
    return rows.map((r) =>
      Object.freeze({
        environmentId: r.environment_id as string,
        visitorId: r.visitor_id as string,
        anonymousId: (r.anonymous_id as string | null) ?? null,
        campaignId: r.campaign_id as string,
        variationGroupId: r.variation_group_id as string,
        variationId: r.variation_id as string,
        timestamp: Number(r.timestamp),
      }),
    );
  }
}
