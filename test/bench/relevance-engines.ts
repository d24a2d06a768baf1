/**
 * The engines compared on the judged queries, each built over the same Best Buy products and
 * answering a query with ranked product ids (`bb-<index>`, as test/helpers/bestbuy.ts names them).
 * The peers search name, brand, description and categories (as one text); abkit runs with its
 * defaults through the public API.
 */
import { create, insertMultiple, search as oramaSearch, type AnyOrama } from '@orama/orama';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { SearchService, type Catalog, type SearchQueryInput, type SearchServiceOptions } from '../../src/index';
import type { BestBuyProduct } from '../helpers/bestbuy';

/** One engine under measurement. */
export interface Engine {
  readonly name: string;
  /** How the engine was configured, printed under the table. */
  readonly setup: string;
  /** The ids of the best `k` results, best first. */
  search(text: string, k: number): Promise<string[]> | string[];
  close?(): void;
}

/** A product as the peers index it. */
interface PeerDoc {
  id: string;
  name: string;
  brand: string;
  description: string;
  categories: string;
}

const PEER_FIELDS = ['name', 'brand', 'description', 'categories'] as const;

function peerDocs(products: readonly BestBuyProduct[]): PeerDoc[] {
  return products.map((p, i) => ({
    id: `bb-${i}`,
    name: p.name,
    brand: p.brand,
    description: p.description,
    categories: p.categories.join(' > '),
  }));
}

/** The MiniSearch options of the bare baseline (also the search latency benchmark's baseline). */
export const MINISEARCH_BASELINE = { prefix: true, fuzzy: 0.2, boost: { name: 2 }, combineWith: 'OR' } as const;

/** Bare MiniSearch as a user would configure it: BM25, prefix, fuzzy 0.2, name boosted twice, OR. */
export function miniSearchEngine(products: readonly BestBuyProduct[]): Engine & { readonly index: MiniSearch<PeerDoc> } {
  const index = new MiniSearch<PeerDoc>({ fields: [...PEER_FIELDS], idField: 'id', searchOptions: MINISEARCH_BASELINE });
  index.addAll(peerDocs(products));
  return {
    name: 'MiniSearch 7 (BM25)',
    setup: 'fields name/brand/description/categories, prefix: true, fuzzy: 0.2, boost { name: 2 }, combineWith OR',
    index,
    search: (text, k) =>
      index
        .search(text)
        .slice(0, k)
        .map((r) => r.id as string),
  };
}

/** Orama 3 with its default full-text search (BM25, no typo tolerance, no boosts). */
export async function oramaEngine(products: readonly BestBuyProduct[]): Promise<Engine> {
  const db: AnyOrama = create({ schema: { id: 'string', name: 'string', brand: 'string', description: 'string', categories: 'string' } });
  await insertMultiple(db, peerDocs(products));
  return {
    name: 'Orama 3 (BM25)',
    setup: 'default search (BM25, tolerance 0) over name/brand/description/categories',
    search: async (text, k) => {
      const result = await oramaSearch(db, { term: text, properties: [...PEER_FIELDS], limit: k });
      return result.hits.map((h) => String(h.document.id));
    },
  };
}

/**
 * The FTS5 query for a user's text: every word (split on anything that is not a letter or digit,
 * as FTS5's unicode61 tokenizer splits) as a quoted prefix term, ORed, so a product matching
 * any word is a candidate and bm25() ranks those matching more and rarer words first.
 */
export function fts5Query(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0 ? undefined : words.map((w) => `"${w}"*`).join(' OR ');
}

/** A product as every peer indexes it on the shared catalogs: its id and one text per searchable field. */
export type FieldDoc = { id: string } & Record<string, string>;

/** How much a match in the name counts over other fields, in every peer of the four-catalog comparison. */
export const NAME_BOOST = 2;

/** MiniSearch 7 over `fields` (the first one, the name, boosted by {@link NAME_BOOST}), the baseline's other options. */
export function miniSearchOver(docs: readonly FieldDoc[], fields: readonly string[]): Engine {
  const index = new MiniSearch<FieldDoc>({
    fields: [...fields],
    idField: 'id',
    searchOptions: { ...MINISEARCH_BASELINE, boost: { [fields[0]!]: NAME_BOOST } },
  });
  index.addAll(docs);
  return {
    name: 'MiniSearch 7 (BM25)',
    setup: `fields ${fields.join('/')}, prefix: true, fuzzy: 0.2, boost { ${fields[0]}: ${NAME_BOOST} }, combineWith OR`,
    search: (text, k) =>
      index
        .search(text)
        .slice(0, k)
        .map((r) => r.id as string),
  };
}

/** Orama 3 over `fields` with its default BM25 (no typo tolerance), the name boosted by {@link NAME_BOOST}. */
export async function oramaOver(docs: readonly FieldDoc[], fields: readonly string[]): Promise<Engine> {
  const db: AnyOrama = create({ schema: Object.fromEntries(['id', ...fields].map((f) => [f, 'string'])) as Record<string, 'string'> });
  await insertMultiple(db, [...docs]);
  return {
    name: 'Orama 3 (BM25)',
    setup: `default search (BM25, tolerance 0) over ${fields.join('/')}, boost { ${fields[0]}: ${NAME_BOOST} }`,
    search: async (text, k) => {
      const result = await oramaSearch(db, { term: text, properties: [...fields], boost: { [fields[0]!]: NAME_BOOST }, limit: k });
      return result.hits.map((h) => String(h.document.id));
    },
  };
}

/** SQLite FTS5 (porter) over `fields`, ranked by bm25() with the name's column weighted {@link NAME_BOOST}, the others 1. */
export function fts5Over(docs: readonly FieldDoc[], fields: readonly string[]): Engine {
  const db = new Database(':memory:');
  const columns = fields.map((f) => `"${f}"`).join(', ');
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, ${columns}, tokenize = 'porter unicode61')`);
  const insert = db.prepare(`INSERT INTO docs (id, ${columns}) VALUES (?, ${fields.map(() => '?').join(', ')})`);
  db.transaction((list: readonly FieldDoc[]) => {
    for (const d of list) insert.run(d.id, ...fields.map((f) => d[f] ?? ''));
  })(docs);
  // bm25() takes one weight per column, the unindexed id included.
  const weights = [0, NAME_BOOST, ...fields.slice(1).map(() => 1)].join(', ');
  const select = db.prepare(`SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, ${weights}) LIMIT ?`).pluck();
  return {
    name: 'SQLite FTS5 (porter, bm25())',
    setup: `tokenize 'porter unicode61' over ${fields.join('/')}; every word a quoted prefix term joined by OR; ORDER BY bm25(docs, ${weights})`,
    search: (text, k) => {
      const query = fts5Query(text);
      return query === undefined ? [] : (select.all(query, k) as string[]);
    },
    close: () => db.close(),
  };
}

/** SQLite FTS5 with the porter stemmer, ranked by bm25() with equal column weights. */
export function fts5Engine(products: readonly BestBuyProduct[]): Engine {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, name, brand, description, categories, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO docs (id, name, brand, description, categories) VALUES (?, ?, ?, ?, ?)');
  db.transaction((docs: PeerDoc[]) => {
    for (const d of docs) insert.run(d.id, d.name, d.brand, d.description, d.categories);
  })(peerDocs(products));
  const select = db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?').pluck();
  return {
    name: 'SQLite FTS5 (porter, bm25())',
    setup: "tokenize 'porter unicode61'; MATCH every word as a quoted prefix term joined by OR; ORDER BY bm25(docs)",
    search: (text, k) => {
      const query = fts5Query(text);
      return query === undefined ? [] : (select.all(query, k) as string[]);
    },
    close: () => db.close(),
  };
}

/** A search query that asks for details once the engine knows `showRankingScoreDetails`. */
type DetailedQuery = SearchQueryInput & { showRankingScoreDetails?: boolean };

/** abkit's SearchService in a benchmark: an engine that can also return hits with their ranking details. */
export type AbkitEngine = Engine & {
  readonly service: SearchService;
  details(text: string, k: number): Promise<readonly Record<string, unknown>[]>;
};

/**
 * abkit's SearchService over the catalog loaded from the same products: with its defaults, or
 * with `options` on top of them (named by `label`).
 */
export function abkitEngine(catalog: Catalog, options: Omit<SearchServiceOptions, 'catalog'> = {}, label = 'defaults'): AbkitEngine {
  const service = new SearchService({ ...options, catalog });
  return {
    name: `abkit SearchService (${label})`,
    setup: `new SearchService(${JSON.stringify({ catalog: '…', ...options })}), other options default (searchable fields, rules, default facets computed)`,
    service,
    search: async (text, k) => (await service.search({ text, hitsPerPage: k })).hits.map((h) => h.id),
    details: async (text, k) => {
      const query: DetailedQuery = { text, hitsPerPage: k, showRankingScoreDetails: true };
      return (await service.search(query)).hits as readonly Record<string, unknown>[];
    },
  };
}
