/**
 * Versioned schema migrations, applied at open (or by `migrate()`). Two processes starting at
 * once are safe: PostgreSQL serializes them with an advisory lock, SQLite with its write lock.
 *
 * @module
 */
import type { SqlDriver } from './driver';

interface Migration {
  version: number;
  description: string;
  statements: (dialect: SqlDriver['dialect']) => string[];
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'decision, access and catalog stores',
    statements: (dialect) => {
      const seq = dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
      return [
        `CREATE TABLE environments (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, api_key_hash TEXT, config TEXT NOT NULL, version INTEGER NOT NULL, updated_at BIGINT NOT NULL)`,
        `CREATE INDEX environments_account ON environments (account_id)`,
        `CREATE TABLE assignments (environment_id TEXT NOT NULL, visitor_id TEXT NOT NULL, variation_group_id TEXT NOT NULL, variation_id TEXT NOT NULL, PRIMARY KEY (environment_id, visitor_id, variation_group_id))`,
        `CREATE TABLE activations (seq ${seq}, environment_id TEXT NOT NULL, visitor_id TEXT NOT NULL, anonymous_id TEXT, campaign_id TEXT NOT NULL, variation_group_id TEXT NOT NULL, variation_id TEXT NOT NULL, timestamp BIGINT NOT NULL)`,
        `CREATE INDEX activations_environment ON activations (environment_id, timestamp, seq)`,
        `CREATE TABLE accesses (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, name TEXT NOT NULL, environments TEXT NOT NULL, actions TEXT NOT NULL, client_id TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL, created_at BIGINT NOT NULL, revoked_at BIGINT)`,
        `CREATE INDEX accesses_account ON accesses (account_id, created_at)`,
        `CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, access_id TEXT NOT NULL, account_id TEXT NOT NULL, client_id TEXT NOT NULL, actions TEXT NOT NULL, environments TEXT NOT NULL, issued_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)`,
        `CREATE INDEX tokens_expiry ON tokens (expires_at)`,
        `CREATE TABLE catalogs (identifier TEXT PRIMARY KEY, catalog_key_hash TEXT NOT NULL UNIQUE, search_key_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL, visible_version INTEGER NOT NULL DEFAULT 0, synced_at BIGINT)`,
        `CREATE TABLE catalog_fields (identifier TEXT NOT NULL, name TEXT NOT NULL, type TEXT, created_at BIGINT NOT NULL, PRIMARY KEY (identifier, name))`,
        `CREATE TABLE catalog_items (identifier TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (identifier, id))`,
        `CREATE TABLE catalog_visible (identifier TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (identifier, id))`,
      ];
    },
  },
  {
    version: 2,
    description: 'catalogs remember what their visible version was published from',
    statements: () => [
      'ALTER TABLE catalogs ADD COLUMN accepted_version BIGINT NOT NULL DEFAULT 0',
      'ALTER TABLE catalogs ADD COLUMN published_from BIGINT NOT NULL DEFAULT -1',
    ],
  },
  {
    version: 3,
    description: 'conversion events, indexed for per-campaign aggregation',
    statements: (dialect) => [
      `CREATE TABLE events (seq ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'}, environment_id TEXT NOT NULL, visitor_id TEXT NOT NULL, event TEXT NOT NULL, value DOUBLE PRECISION, timestamp BIGINT NOT NULL)`,
      // Aggregation seeks one visitor's events of one metric, in time order (value added by 4).
      'CREATE INDEX events_metric ON events (environment_id, event, visitor_id, timestamp)',
      'CREATE INDEX events_time ON events (environment_id, timestamp, seq)',
      // Exposures of one campaign, grouped by visitor without a sort.
      'CREATE INDEX activations_campaign ON activations (environment_id, campaign_id, visitor_id)',
    ],
  },
  {
    version: 4,
    description: 'the event index covers the value, so aggregation reads no event row (a third faster on SQLite)',
    statements: () => [
      'DROP INDEX events_metric',
      'CREATE INDEX events_metric ON events (environment_id, event, visitor_id, timestamp, value)',
    ],
  },
  {
    version: 5,
    description:
      'catalog items carry the revision that wrote them and deletions leave a mark, so a sync copies only what changed and a reader re-parses only that',
    statements: () => [
      'ALTER TABLE catalog_items ADD COLUMN revision BIGINT NOT NULL DEFAULT 0',
      // 0 on visible rows written before: a revision no later write gives.
      'ALTER TABLE catalog_visible ADD COLUMN revision BIGINT NOT NULL DEFAULT 0',
      // Items not published yet must be copied by the next sync: they take the catalog's latest revision.
      'UPDATE catalog_items SET revision = (SELECT accepted_version FROM catalogs c WHERE c.identifier = catalog_items.identifier)',
      'CREATE TABLE catalog_deleted (identifier TEXT NOT NULL, id TEXT NOT NULL, revision BIGINT NOT NULL, PRIMARY KEY (identifier, id))',
      // Deletions not published yet, found once by comparing the two tables.
      'INSERT INTO catalog_deleted (identifier, id, revision) SELECT v.identifier, v.id, c.accepted_version FROM catalog_visible v JOIN catalogs c ON c.identifier = v.identifier WHERE NOT EXISTS (SELECT 1 FROM catalog_items i WHERE i.identifier = v.identifier AND i.id = v.id)',
      'CREATE INDEX catalog_items_revision ON catalog_items (identifier, revision, id)',
    ],
  },
  {
    version: 6,
    description:
      'PostgreSQL: visible ids indexed in byte order, the order a reader pages them in (a database collation such as en_US orders ids otherwise than JavaScript does, and sorting 100,000 rows per read instead doubled its time)',
    statements: (dialect) =>
      dialect === 'postgres' ? ['CREATE INDEX catalog_visible_bytes ON catalog_visible (identifier, id COLLATE "C")'] : [],
  },
  {
    version: 7,
    description: 'the admin API: accounts, catalog settings, the audit log, and when an access was last used',
    statements: (dialect) => [
      'CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at BIGINT NOT NULL, default_environment TEXT)',
      'CREATE TABLE catalog_settings (identifier TEXT PRIMARY KEY, sync_interval_ms BIGINT, search TEXT, updated_at BIGINT NOT NULL)',
      `CREATE TABLE audit_log (seq ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'}, actor TEXT NOT NULL, action TEXT NOT NULL, target TEXT NOT NULL, time BIGINT NOT NULL, outcome TEXT NOT NULL, detail TEXT)`,
      'ALTER TABLE accesses ADD COLUMN last_used_at BIGINT',
    ],
  },
  {
    version: 8,
    description:
      'search analytics: counts rolled up per catalog, UTC day and query, item, query and item, or filtered field (a write adds to them), and the registry of tracked searches',
    statements: () => [
      'CREATE TABLE search_query_days (catalog TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL, searches BIGINT NOT NULL, tracked BIGINT NOT NULL, zero_results BIGINT NOT NULL, clicks BIGINT NOT NULL, click_positions BIGINT NOT NULL, conversions BIGINT NOT NULL, latency_ms DOUBLE PRECISION NOT NULL, PRIMARY KEY (catalog, day, query))',
      'CREATE TABLE search_item_days (catalog TEXT NOT NULL, day INTEGER NOT NULL, item_id TEXT NOT NULL, clicks BIGINT NOT NULL, conversions BIGINT NOT NULL, views BIGINT NOT NULL, purchases BIGINT NOT NULL, pageviews BIGINT NOT NULL, PRIMARY KEY (catalog, day, item_id))',
      'CREATE TABLE search_query_item_days (catalog TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL, item_id TEXT NOT NULL, clicks BIGINT NOT NULL, examined DOUBLE PRECISION NOT NULL, conversions BIGINT NOT NULL, PRIMARY KEY (catalog, day, query, item_id))',
      // Retention deletes by day across catalogs.
      'CREATE INDEX search_query_days_day ON search_query_days (day)',
      'CREATE INDEX search_item_days_day ON search_item_days (day)',
      'CREATE INDEX search_query_item_days_day ON search_query_item_days (day)',
      'CREATE TABLE search_filter_days (catalog TEXT NOT NULL, day INTEGER NOT NULL, field TEXT NOT NULL, searches BIGINT NOT NULL, PRIMARY KEY (catalog, day, field))',
      'CREATE INDEX search_filter_days_day ON search_filter_days (day)',
      'CREATE TABLE search_queries (query_id TEXT PRIMARY KEY, catalog TEXT NOT NULL, query TEXT NOT NULL, hits TEXT NOT NULL, hit_offset INTEGER NOT NULL, visitor_id TEXT, time BIGINT NOT NULL)',
      // Forgetting the oldest of a catalog, and by time.
      'CREATE INDEX search_queries_time ON search_queries (catalog, time)',
      'CREATE INDEX search_queries_age ON search_queries (time)',
    ],
  },
];

/**
 * The newest schema version this code knows.
 *
 * @example
 * ```ts
 * const storage = await sqliteStorage({ filename: '.abkit/abkit.db', migrate: false });
 * const [row] = await storage.driver.query<{ v: number | null }>('SELECT max(version) AS v FROM abkit_migrations');
 * if ((row?.v ?? 0) < SCHEMA_VERSION) await storage.migrate();
 * ```
 */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Applies every migration not applied yet, up to `target` (tests of upgrades stop earlier); returns the versions applied now. */
export async function migrate(driver: SqlDriver, target: number = SCHEMA_VERSION): Promise<number[]> {
  return driver.transaction(async (tx) => {
    // One migrator at a time across processes: PostgreSQL by an advisory lock that ends with
    // the transaction; SQLite because its transactions begin IMMEDIATE (the write lock).
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(?)', [0x61626b69]);
    await tx.exec('CREATE TABLE IF NOT EXISTS abkit_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const rows = await tx.query<{ version: number }>('SELECT version FROM abkit_migrations');
    const done = new Set(rows.map((r) => Number(r.version)));
    const newest = Math.max(0, ...done);
    if (newest > SCHEMA_VERSION) {
      throw new Error(`the database schema is at version ${newest}, newer than this abkit (${SCHEMA_VERSION}); upgrade abkit`);
    }
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version) || m.version > target) continue;
      for (const statement of m.statements(tx.dialect)) await tx.exec(statement);
      await tx.exec('INSERT INTO abkit_migrations (version, applied_at) VALUES (?, ?)', [m.version, Date.now()]);
      applied.push(m.version);
    }
    return applied;
  });
}
