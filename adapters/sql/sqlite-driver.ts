import type BetterSqlite3 from 'better-sqlite3';
import type { Row, SqlDriver } from './driver';
import { guardStorage, isSqliteUnavailable } from './unavailable';

/**
 * better-sqlite3 behind the async driver interface. The connection is single-threaded and
 * synchronous, so an async transaction must not interleave with other statements: every call
 * waits its turn in a queue, and a transaction holds the queue until it ends.
 *
 * Transactions asked for one after another, with no other statement asked for in between, share
 * one commit (group commit): each runs in its own savepoint, so a failing one is rolled back
 * alone and rejects alone, and every caller learns its outcome after the shared COMMIT. A commit
 * writes every page the transaction touched to the WAL. Decisions all append to the same last
 * pages (the activation log and its time index), so a shared commit writes those pages once per
 * group instead of once per decision, and the fixed cost of a commit is paid once.
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly maxParams = 32_000;
  readonly #db: BetterSqlite3.Database;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  /** The transactions of the group waiting in the queue, still open to more. */
  #group: Member[] | undefined;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      // Bulk statements vary in length; keep the cache to the repeated ones.
      if (this.#statements.size < 500) this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run<T>(work: () => T | Promise<T>): Promise<T> {
    // A statement asked for after a transaction runs after it: later transactions start a new group.
    this.#group = undefined;
    return this.#enqueue(work);
  }

  #enqueue<T>(work: () => T | Promise<T>): Promise<T> {
    const guarded = () => guard(work);
    const next = this.#tail.then(guarded, guarded);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  #direct(): SqlDriver {
    const query = async <T extends Row>(sql: string, params: readonly unknown[] = []) => this.#prepare(sql).all(...params.map(bind)) as T[];
    const exec = async (sql: string, params: readonly unknown[] = []) => this.#prepare(sql).run(...params.map(bind)).changes;
    const tx: SqlDriver = {
      dialect: 'sqlite',
      maxParams: this.maxParams,
      query,
      exec,
      transaction: (fn) => fn(tx),
      isUniqueViolation: (e) => this.isUniqueViolation(e),
      close: async () => {},
    };
    return tx;
  }

  query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.#run(() => this.#prepare(sql).all(...params.map(bind)) as T[]);
  }

  exec(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.#run(() => this.#prepare(sql).run(...params.map(bind)).changes);
  }

  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const member: Member = { fn, resolve: resolve as (value: unknown) => void, reject };
      if (this.#group) return void this.#group.push(member);
      const group = (this.#group = [member]);
      // The group waits for the end of the event loop's turn, so the transactions that the
      // turn's requests ask for join it.
      const turnEnds = new Promise<void>((done) => setImmediate(done));
      this.#enqueue(async () => {
        await turnEnds;
        if (this.#group === group) this.#group = undefined;
        await this.#commit(group);
      }).catch((error: unknown) => {
        for (const m of group) m.reject(error);
      });
    });
  }

  /** Runs a group's transactions, each in a savepoint, under one BEGIN IMMEDIATE … COMMIT. */
  async #commit(group: readonly Member[]): Promise<void> {
    // IMMEDIATE takes the write lock at once, so two processes cannot both read then write.
    this.#db.exec('BEGIN IMMEDIATE');
    const outcomes: [boolean, unknown][] = [];
    try {
      for (const member of group) {
        this.#db.exec('SAVEPOINT member');
        try {
          const value = await guard(() => member.fn(this.#direct()));
          this.#db.exec('RELEASE member');
          outcomes.push([true, value]);
        } catch (error) {
          // Some errors (a full disk, I/O) end the whole transaction: the group fails with it,
          // rather than run the rest outside a transaction.
          if (!this.#db.inTransaction) throw error;
          this.#db.exec('ROLLBACK TO member; RELEASE member');
          outcomes.push([false, error]);
        }
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
    group.forEach((m, i) => {
      const [ok, outcome] = outcomes[i]!;
      if (ok) m.resolve(outcome);
      else m.reject(outcome);
    });
  }

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown })?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }

  async close(): Promise<void> {
    await this.#run(() => this.#db.close());
  }
}

/** A transaction waiting in a group, with its caller's promise. */
interface Member {
  fn: (tx: SqlDriver) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

// Busy past the timeout, I/O errors, a full disk: 503 for this request, not a 500.
const guard = <T>(work: () => T | Promise<T>): Promise<T> => guardStorage(async () => work(), isSqliteUnavailable, 'SQLite');

// SQLite binds booleans poorly and undefined not at all.
function bind(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
