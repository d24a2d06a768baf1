/**
 * One immutable search index over one visible catalog version: the text index (dictionary,
 * postings, per-field word sequences) and per-path value indexes (postings for exact values,
 * sorted arrays for number ranges), so filters never scan every document.
 *
 * @module
 */
import { STANDARD_FIELDS } from '../catalog/typing';
import type { FieldType } from '../model/field-types';
import type { CatalogItem } from '../storage/catalog';
import type { Analyzer } from './analysis';
import { bm25Norm, bm25Share } from './bm25';
import { MAX_OBJECT_KEY_PATHS, searchPaths, visibleTypes } from './index-paths';
import { Dictionary } from './dictionary';
import { fieldValue } from './fields';
import { Growable, zeroed } from './growable';
import { type NamingHabits, PROFILE_HABITS } from './naming';
import { pathIndexSteps, type PathIndex } from './path-index';
import { fieldWords, namesWhatItIs, NO_SPAN, saysWhatItIs } from './subject';
import { proseFields } from './prose';
import { runInSlices } from '../slices';
import { VALUE_SEPARATOR } from './units';

export { MAX_OBJECT_KEY_PATHS } from './index-paths';

/** Characters of text analysed between two checkpoints of an index build (where a turn may be given). */
export const BUILD_CHECKPOINT_CHARACTERS = 8192;
/** Items (or distinct words, or values) visited between two checkpoints of an index build. */
export const BUILD_CHECKPOINT_ITEMS = 1024;
/** Tokens visited between two checkpoints of an index build. */
export const BUILD_CHECKPOINT_TOKENS = 1 << 16;
/**
 * Tokens visited between two checkpoints while the postings are filled, which does several times
 * the work per token of the other passes (and runs unoptimized at first): 65,536 tokens took
 * 8 ms of a step, the first such step 16–20 ms (100,000 items, loaded).
 */
export const FILL_CHECKPOINT_TOKENS = 1 << 14;

/** Word positions, and field lengths, kept per posting in {@link SearchIndex.postingPositions} and {@link SearchIndex.postingStarts}. */
export const START_POSITIONS = 8;
/** {@link SearchIndex.postingFlags}: the word is somewhere the document says what it is (see subject.ts, as the ranking reads it). */
export const SAYS_WHAT = 4;
/** {@link SearchIndex.postingFlags}: the word is somewhere it names what the document is (a name phrase's head, the category's type word). */
export const NAMES_WHAT = 8;
/** {@link SearchIndex.postingFlags}: the word is in a searched field that is not prose (see prose.ts; none without prose fields). */
export const OUTSIDE_PROSE = 16;
/** Largest count kept per posting in {@link SearchIndex.postingTf} and {@link SearchIndex.postingTfFirst} (a larger count reads as unknown). */
export const MAX_POSTING_TF = 0xff;

/** How an index is built. */
export interface IndexSettings {
  /** Fields whose text is searched, best first; undefined: `name`, every string custom field, then `categories_ids`. */
  readonly searchableFields?: readonly string[];
  /** Field → boost (relative weight); default 1. */
  readonly boosts?: Readonly<Record<string, number>>;
  /** The naming habits read (see naming.ts); default: the `neutral` profile's. */
  readonly habits?: NamingHabits;
}

/**
 * An immutable index of one visible version: a dictionary of folded words, their postings,
 * the words of every document field in order (positions for proximity, attribute and
 * exactness), stems, and the value indexes of filters and facets.
 */
export class SearchIndex {
  readonly version: number;
  readonly items: readonly CatalogItem[];
  readonly paths: ReadonlyMap<string, PathIndex>;
  /** Object keys not indexed, beyond {@link MAX_OBJECT_KEY_PATHS}. */
  readonly skippedKeys: number;
  /** Searched fields, in the order given. */
  readonly searchable: readonly string[];
  /** Per searched field: its rank (0 = best) by boost, then order. */
  readonly fieldRank: Uint8Array;
  /** Number of distinct field ranks. */
  readonly fieldRanks: number;
  /** Per searched field: its boost over the largest boost. */
  readonly fieldWeight: Float64Array;
  readonly dictionary: Dictionary;
  /** Stem → numbers of the words having it. */
  readonly stems: ReadonlyMap<string, readonly number[]>;
  /** Documents of every word, word after word (one array: a few large arrays, not one per word). */
  readonly postingDocs: Uint32Array;
  /** Where each word's documents start in `postingDocs` (word w: `postingStart[w] … postingStart[w + 1]`). */
  readonly postingStart: Uint32Array;
  /**
   * Per posting (the entries of `postingDocs`): what the ranking's bounds read without reading
   * the document's words (see reading/postings.ts and the rules' bounds). Flags {@link SAYS_WHAT}, {@link NAMES_WHAT}.
   */
  readonly postingFlags: Uint8Array;
  /** Per posting: bit p set when the word is at position p (below {@link START_POSITIONS}) of one of the document's fields. */
  readonly postingPositions: Uint8Array;
  /** Per posting: bit L − 1 set when the word starts one of the document's fields of L words (L up to {@link START_POSITIONS}). */
  readonly postingStarts: Uint8Array;
  /** Per posting: the word's best place, `fieldRank << 8 | min(position, 255)` (lowest rank, then earliest position in a field of that rank). */
  readonly postingPlace: Uint16Array;
  /** Per posting: the word's occurrences in the first searched field, at most {@link MAX_POSTING_TF}. */
  readonly postingTfFirst: Uint8Array;
  /** Per posting: the word's occurrences in every searched field, at most {@link MAX_POSTING_TF}. */
  readonly postingTf: Uint8Array;
  /**
   * Per posting: the searched fields holding the word, bit f for field f (0 when there are over 32
   * fields: unknown); one byte per posting for up to 8 fields, two for up to 16.
   */
  readonly postingFields: Uint8Array | Uint16Array | Uint32Array;
  /**
   * Per posting: the word's BM25 share without its idf, `Σ_f weight_f · tf·(k1 + 1) / (tf + norm_f)`
   * over the document's fields in order, computed as the ranking computes a term's (bm25.ts),
   * rounded up to a float32: a bound. {@link postingShare} gives the exact share when the word is
   * in one field, or in the first and one other.
   */
  readonly postingBm25: Float32Array;
  /** Per document: characters of the words of its first searched field. */
  readonly firstChars: Uint32Array;
  /** Per document: characters of the words of every searched field. */
  readonly textChars: Uint32Array;
  /** Word numbers of document d, field f, in order: `tokens[offsets[d·F + f] … offsets[d·F + f + 1]]` (two bytes each up to 65,536 words). */
  readonly tokens: Uint16Array | Uint32Array;
  readonly offsets: Uint32Array;
  /** Mean length in words of each searched field. */
  readonly averageLength: Float64Array;
  /**
   * What each item IS (see subject.ts), per document d: its name's words at positions
   * `[subjectSpans[3d], subjectSpans[3d + 1])` say what it fits, the rest what it is; its
   * categories' word at position `subjectSpans[3d + 2]` names its type ({@link NO_SPAN}: none).
   */
  readonly subjectSpans: Uint16Array;
  /** Which of item d's first 32 name words end a phrase, its heads (bit k for word k; see subject.ts). */
  readonly nameHeads: Uint32Array;
  /** Per word: how many documents have it where it says what the item is (a type word like "case" more often than a model like "plus"). */
  readonly subjectDf: Uint32Array;
  /** Per word: how many documents it names, as a name phrase's last word or the category's type word ("phone" in "Prepaid Cell Phone"; not "prepaid"). */
  readonly namedDf: Uint32Array;
  /** The naming habits its subject spans were read with, and the ranking reads (see naming.ts). */
  readonly habits: NamingHabits;
  /** Unit vectors per document, when an embedder is configured. */
  vectors: readonly Float32Array[] | undefined;

  private constructor(parts: Omit<SearchIndex, 'vectors' | 'docs' | 'wordsOf'>) {
    this.version = parts.version;
    this.items = parts.items;
    this.paths = parts.paths;
    this.skippedKeys = parts.skippedKeys;
    this.searchable = parts.searchable;
    this.fieldRank = parts.fieldRank;
    this.fieldRanks = parts.fieldRanks;
    this.fieldWeight = parts.fieldWeight;
    this.dictionary = parts.dictionary;
    this.stems = parts.stems;
    this.postingDocs = parts.postingDocs;
    this.postingStart = parts.postingStart;
    this.postingFlags = parts.postingFlags;
    this.postingPositions = parts.postingPositions;
    this.postingStarts = parts.postingStarts;
    this.postingPlace = parts.postingPlace;
    this.postingTfFirst = parts.postingTfFirst;
    this.postingTf = parts.postingTf;
    this.postingFields = parts.postingFields;
    this.postingBm25 = parts.postingBm25;
    this.firstChars = parts.firstChars;
    this.textChars = parts.textChars;
    this.tokens = parts.tokens;
    this.offsets = parts.offsets;
    this.averageLength = parts.averageLength;
    this.subjectSpans = parts.subjectSpans;
    this.nameHeads = parts.nameHeads;
    this.subjectDf = parts.subjectDf;
    this.namedDf = parts.namedDf;
    this.habits = parts.habits;
    this.vectors = undefined;
  }

  /**
   * The indexed words `text` is written as or shares its stem `stem` with: what a word reaches
   * with no prefix or typo (a synonym's word, a compound's head, a query term's own words).
   *
   * @example
   * ```ts
   * index.wordsOf('robe', 'robe').map((w) => index.dictionary.words[w]); // ['robe', 'robes']
   * ```
   */
  wordsOf(text: string, stem: string): number[] {
    const ids = new Set(this.stems.get(stem) ?? []);
    const id = this.dictionary.id(text);
    if (id >= 0) ids.add(id);
    return [...ids];
  }

  /** Ascending numbers of the documents containing word `w`. */
  docs(w: number): Uint32Array {
    return this.postingDocs.subarray(this.postingStart[w]!, this.postingStart[w + 1]!);
  }

  /** Builds the index of one visible version, giving the event loop a turn at every step of {@link SearchIndex.steps}. */
  static build(
    version: number,
    items: readonly CatalogItem[],
    settings: IndexSettings,
    analyzer: Analyzer,
    previous?: SearchIndex,
  ): Promise<SearchIndex> {
    return runInSlices(SearchIndex.steps(version, items, settings, analyzer, previous));
  }

  /**
   * The construction in steps: every `yield` is a point where the caller may give the event loop
   * a turn, reached after at most {@link BUILD_CHECKPOINT_CHARACTERS} characters of text
   * analysed (plus the item in progress) or {@link BUILD_CHECKPOINT_ITEMS} items visited.
   * Field types come from the visible items themselves, not the accepted schema: writes not yet
   * synchronized must not change what search accepts.
   *
   * With the `previous` index of the same service (same settings and analyzer), the words of an
   * item whose searched text has not changed are copied from it instead of analysed again: a
   * sync that changed a few items analyses a few items. Items are matched by id, both lists
   * being in id order (as stores give them); any other order only makes fewer matches.
   */
  static *steps(
    version: number,
    items: readonly CatalogItem[],
    settings: IndexSettings,
    analyzer: Analyzer,
    previous?: SearchIndex,
  ): Generator<void, SearchIndex> {
    const custom = yield* visibleTypes(items, BUILD_CHECKPOINT_ITEMS);
    const types = new Map<string, FieldType>();
    for (const [name, f] of Object.entries(STANDARD_FIELDS)) types.set(name, f.type);
    for (const [name, type] of custom) types.set(name, type);
    // Category paths name the product type ("cell-phones"): searched last, after the text fields.
    const searchable = settings.searchableFields ?? [
      'name',
      ...[...custom].filter(([, t]) => t === 'string').map(([name]) => name),
      'categories_ids',
    ];
    const boosts = settings.boosts ?? {};
    const habits = settings.habits ?? PROFILE_HABITS.neutral;
    // Own properties only: a field named `constructor` must not read Object's.
    const boost = (f: string) => (Object.hasOwn(boosts, f) ? boosts[f]! : 1);
    const top = Math.max(1, ...searchable.map(boost));
    const fieldWeight = Float64Array.from(searchable, (f) => boost(f) / top);
    const distinct = [...new Set(searchable.map(boost))].sort((a, b) => b - a);
    // Without boosts the order of the fields ranks them; with boosts, the boost does.
    const fieldRank = Uint8Array.from(searchable, (f, i) => (settings.boosts ? distinct.indexOf(boost(f)) : Math.min(i, 255)));
    const fieldRanks = Math.max(...fieldRank, 0) + 1;

    const F = searchable.length;
    const ids = new Map<string, number>();
    const wordList: string[] = [];
    const tokens = new Growable();
    const offsets = new Uint32Array(items.length * F + 1);
    const totalLength = new Float64Array(F);
    const subjectSpans = new Uint16Array(items.length * 3);
    for (let d = 0; d < items.length; d++) subjectSpans[d * 3 + 2] = NO_SPAN;
    const nameHeads = new Uint32Array(items.length);
    const subjectDf: number[] = [];
    const lastSubjectDoc: number[] = [];
    const namedDf: number[] = [];
    const lastNamedDoc: number[] = [];
    const word = (w: string) => {
      let id = ids.get(w);
      if (id === undefined) {
        id = wordList.length;
        ids.set(w, id);
        wordList.push(w);
        subjectDf.push(0);
        lastSubjectDoc.push(-1);
        namedDf.push(0);
        lastNamedDoc.push(-1);
      }
      return id;
    };
    // Counts a word once per document where it says what the item is.
    const subjectWord = (id: number, d: number) => {
      if (lastSubjectDoc[id] === d) return;
      lastSubjectDoc[id] = d;
      subjectDf[id]!++;
    };
    // Counts a word once per document it names.
    const namedWord = (id: number, d: number) => {
      if (lastNamedDoc[id] === d) return;
      lastNamedDoc[id] = d;
      namedDf[id]!++;
    };
    const reuse =
      previous && previous.habits === habits && previous.searchable.length === F && previous.searchable.every((f, i) => f === searchable[i])
        ? previous
        : undefined;
    // Previous word number → this index's (-1: not met yet).
    const renumber = new Int32Array(reuse ? reuse.dictionary.words.length : 0).fill(-1);
    let p = 0;
    let characters = 0;
    let copied = 0;
    for (let d = 0; d < items.length; d++) {
      const item = items[d]!;
      let from = -1;
      if (reuse) {
        const old = reuse.items;
        while (p < old.length && old[p]!.id < item.id) p++;
        if (p < old.length && old[p]!.id === item.id) {
          const before = old[p]!;
          let same = before === item;
          if (!same) {
            same = true;
            for (let f = 0; f < F && same; f++) {
              const a = fieldText(before, searchable[f]!);
              const b = fieldText(item, searchable[f]!);
              characters += a.length;
              same = a === b;
            }
          }
          if (same) from = p;
        }
      }
      for (let f = 0; f < F; f++) {
        offsets[d * F + f] = tokens.length;
        const field = searchable[f]!;
        if (from >= 0) {
          const { tokens: was, offsets: at, dictionary, subjectSpans: spans } = reuse!;
          if (f === 0) {
            subjectSpans.set(spans.subarray(from * 3, from * 3 + 3), d * 3);
            nameHeads[d] = reuse!.nameHeads[from]!;
          }
          const start = at[from * F + f]!;
          for (let t = start, end = at[from * F + f + 1]!; t < end; t++) {
            const w = was[t]!;
            let id = renumber[w]!;
            if (id < 0) id = renumber[w] = word(dictionary.words[w]!);
            tokens.push(id);
            const k = t - start;
            if (saysWhatItIs(field, k, spans, from * 3)) subjectWord(id, d);
            if (namesWhatItIs(field, k, spans, from * 3, reuse!.nameHeads[from]!)) namedWord(id, d);
          }
          copied += at[from * F + f + 1]! - start;
        } else {
          const value = fieldValue(item, field);
          const text = searchableText(value);
          characters += text.length;
          const read = fieldWords(field, value, text, habits);
          if (read.tail) subjectSpans.set(read.tail, d * 3);
          if (read.heads !== undefined) nameHeads[d] = read.heads;
          if (read.type !== undefined) subjectSpans[d * 3 + 2] = read.type;
          for (let k = 0; k < read.words.length; k++) {
            const id = word(read.words[k]!);
            tokens.push(id);
            if (read.isSubject(k)) subjectWord(id, d);
            if (read.names(k)) namedWord(id, d);
          }
        }
        totalLength[f]! += tokens.length - offsets[d * F + f]!;
      }
      if (
        characters >= BUILD_CHECKPOINT_CHARACTERS ||
        copied >= BUILD_CHECKPOINT_TOKENS ||
        d % BUILD_CHECKPOINT_ITEMS === BUILD_CHECKPOINT_ITEMS - 1
      ) {
        characters = copied = 0;
        yield;
      }
    }
    offsets[items.length * F] = tokens.length;
    const tokenList: Uint16Array | Uint32Array =
      wordList.length <= 0x10000 ? yield* tokens.concatInto(Uint16Array) : yield* tokens.concat();
    const averageLength = totalLength.map((t) => (items.length === 0 ? 0 : t / items.length));

    // Postings: count, then fill, each document once per word.
    const lastDoc = new Int32Array(wordList.length).fill(-1);
    const postingStart = new Uint32Array(wordList.length + 1);
    yield* eachToken(tokenList, offsets, F, items.length, (w, d) => {
      if (lastDoc[w] === d) return;
      lastDoc[w] = d;
      postingStart[w + 1]!++;
    });
    for (let w = 0; w < wordList.length; w++) postingStart[w + 1]! += postingStart[w]!;
    const postings = yield* fillPostings(tokenList, offsets, postingStart, {
      searchable,
      fieldRank,
      fieldWeight,
      averageLength,
      subjectSpans,
      nameHeads,
      wordList,
      items: items.length,
    });
    const stems = new Map<string, number[]>();
    for (let w = 0; w < wordList.length; w++) {
      const s = analyzer.stem(wordList[w]!);
      const list = stems.get(s);
      if (list) list.push(w);
      else stems.set(s, [w]);
      if (w % BUILD_CHECKPOINT_ITEMS === BUILD_CHECKPOINT_ITEMS - 1) yield;
    }
    const dictionary = yield* Dictionary.steps(wordList);
    const paths = new Map<string, PathIndex>();
    const { infos, skippedKeys } = yield* searchPaths(items, types, BUILD_CHECKPOINT_ITEMS);
    for (const info of infos)
      paths.set(info.path, yield* pathIndexSteps(items, info, BUILD_CHECKPOINT_ITEMS, previous?.paths.get(info.path)));
    return new SearchIndex({
      version,
      items,
      paths,
      skippedKeys,
      searchable,
      fieldRank,
      fieldRanks,
      fieldWeight,
      dictionary,
      stems,
      habits,
      ...postings,
      postingStart,
      tokens: tokenList,
      offsets,
      averageLength,
      subjectSpans,
      nameHeads,
      subjectDf: Uint32Array.from(subjectDf),
      namedDf: Uint32Array.from(namedDf),
    });
  }
}

/**
 * The postings in document order, with what each says for the ranking's bounds (see
 * {@link SearchIndex.postingFlags}), and each document's characters; in steps of at most
 * {@link FILL_CHECKPOINT_TOKENS} tokens.
 */
function* fillPostings(
  tokens: Uint16Array | Uint32Array,
  offsets: Uint32Array,
  postingStart: Uint32Array,
  at: {
    searchable: readonly string[];
    fieldRank: Uint8Array;
    fieldWeight: Float64Array;
    averageLength: Float64Array;
    subjectSpans: Uint16Array;
    nameHeads: Uint32Array;
    wordList: readonly string[];
    items: number;
  },
): Generator<
  void,
  Pick<
    SearchIndex,
    | 'postingDocs'
    | 'postingFlags'
    | 'postingPositions'
    | 'postingStarts'
    | 'postingPlace'
    | 'postingTfFirst'
    | 'postingTf'
    | 'postingFields'
    | 'postingBm25'
    | 'firstChars'
    | 'textChars'
  >
> {
  const { searchable, fieldRank, fieldWeight, averageLength, subjectSpans, nameHeads, wordList } = at;
  const prose = proseFields({ averageLength });
  const F = searchable.length;
  const W = wordList.length;
  const total = postingStart[W]!;
  // Written in the order of the documents, so all over each array from the first step: its pages are written in steps first.
  const postingDocs = yield* zeroed(Uint32Array, total);
  const postingFlags = yield* zeroed(Uint8Array, total);
  const postingPlace = yield* zeroed(Uint16Array, total);
  const postingTfFirst = yield* zeroed(Uint8Array, total);
  const postingTf = yield* zeroed(Uint8Array, total);
  const postingFields = yield* zeroed(fieldMasks(F), total);
  const fields = new Uint32Array(W);
  const positions = new Uint8Array(W);
  const starts = new Uint8Array(W);
  const postingPositions = yield* zeroed(Uint8Array, total);
  const postingStarts = yield* zeroed(Uint8Array, total);
  const postingBm25 = yield* zeroed(Float32Array, total);
  const firstChars = new Uint32Array(at.items);
  const textChars = new Uint32Array(at.items);
  const filled = postingStart.slice(0, W);
  // Per word, for the document being read (reset through `seen`); per field counts through `inField`.
  const lastDoc = new Int32Array(W).fill(-1);
  const flags = new Uint8Array(W);
  const place = new Uint16Array(W);
  const tfFirst = new Uint32Array(W);
  const tf = new Uint32Array(W);
  const bm25 = new Float64Array(W);
  const fieldTf = new Uint32Array(W);
  const seen: number[] = [];
  const inField: number[] = [];
  let done = 0;
  for (let d = 0; d < at.items; d++) {
    seen.length = 0;
    const heads = nameHeads[d]!;
    for (let f = 0; f < F; f++) {
      const lo = offsets[d * F + f]!;
      const hi = offsets[d * F + f + 1]!;
      if (hi === lo) continue;
      const field = searchable[f];
      const rank = fieldRank[f]!;
      // As the ranking reads it: the name says what an item is only while it is among the best fields.
      const readsSubject = field !== 'name' || rank === 0;
      inField.length = 0;
      for (let t = lo; t < hi; t++) {
        const w = tokens[t]!;
        const p = t - lo;
        const chars = wordList[w]!.length;
        textChars[d]! += chars;
        if (f === 0) firstChars[d]! += chars;
        if (lastDoc[w] !== d) {
          lastDoc[w] = d;
          seen.push(w);
          flags[w] = 0;
          place[w] = 0xffff;
          tfFirst[w] = tf[w] = fields[w] = positions[w] = starts[w] = 0;
          bm25[w] = 0;
        }
        if (fieldTf[w]!++ === 0) {
          inField.push(w);
          if (F <= 32) fields[w]! |= 1 << f;
        }
        tf[w]!++;
        if (f === 0) tfFirst[w]!++;
        const placed = (rank << 8) | Math.min(p, 255);
        if (placed < place[w]!) place[w] = placed;
        if (p < START_POSITIONS) positions[w]! |= 1 << p;
        if (p === 0 && hi - lo <= START_POSITIONS) starts[w]! |= 1 << (hi - lo - 1);
        if (readsSubject && saysWhatItIs(field, p, subjectSpans, d * 3)) {
          flags[w]! |= SAYS_WHAT;
          if (namesWhatItIs(field, p, subjectSpans, d * 3, heads)) flags[w]! |= NAMES_WHAT;
        }
      }
      // The ranking's BM25 share of one word, through the functions reading/positions.ts fieldBm25 calls, in its order.
      const norm = bm25Norm(hi - lo, averageLength[f]!);
      for (const w of inField) {
        const n = fieldTf[w]!;
        bm25[w]! += bm25Share(fieldWeight[f]!, n, norm);
        fieldTf[w] = 0;
      }
      done += hi - lo;
    }
    for (const w of seen) {
      const k = filled[w]!++;
      postingDocs[k] = d;
      postingFlags[k] = flags[w]! | (prose !== 0 && (fields[w]! & ~prose) !== 0 ? OUTSIDE_PROSE : 0);
      postingPlace[k] = place[w]!;
      postingTfFirst[k] = Math.min(tfFirst[w]!, MAX_POSTING_TF);
      postingTf[k] = Math.min(tf[w]!, MAX_POSTING_TF);
      postingFields[k] = fields[w]!;
      postingPositions[k] = positions[w]!;
      postingStarts[k] = starts[w]!;
      postingBm25[k] = float32Above(bm25[w]!);
    }
    done++;
    if (done >= FILL_CHECKPOINT_TOKENS) {
      done = 0;
      yield;
    }
  }
  return {
    postingDocs,
    postingFlags,
    postingPositions,
    postingStarts,
    postingPlace,
    postingTfFirst,
    postingTf,
    postingFields,
    postingBm25,
    firstChars,
    textChars,
  };
}

const FLOAT32 = new Float32Array(1);
const FLOAT32_BITS = new Uint32Array(FLOAT32.buffer);

/** The least float32 at least `x` (x ≥ 0, finite): `Math.fround` rounds to the nearest, maybe below. */
export function float32Above(x: number): number {
  FLOAT32[0] = x;
  if (FLOAT32[0]! < x) FLOAT32_BITS[0]!++;
  return FLOAT32[0]!;
}

/** The lowest bit set of a nonzero mask. */
export function lowestBit(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

/** The narrowest array type holding a mask of `F` fields' bits (Uint32Array beyond 32 fields, whose masks are then 0: unknown). */
function fieldMasks(F: number): new (length: number) => Uint8Array | Uint16Array | Uint32Array {
  return F <= 8 ? Uint8Array : F <= 16 ? Uint16Array : Uint32Array;
}

/** Calls `each(word, document)` for every token of every document, in order, in steps. */
function* eachToken(
  tokens: Uint16Array | Uint32Array,
  offsets: Uint32Array,
  F: number,
  n: number,
  each: (w: number, d: number) => void,
): Generator<void, void> {
  let done = 0;
  for (let d = 0; d < n; d++) {
    const end = offsets[(d + 1) * F]!;
    for (let t = offsets[d * F]!; t < end; t++) each(tokens[t]!, d);
    done += end - offsets[d * F]! + 1;
    if (done >= BUILD_CHECKPOINT_TOKENS) {
      done = 0;
      yield;
    }
  }
}

/** The searched text of a field of an item. */
export function fieldText(item: CatalogItem, field: string): string {
  return searchableText(fieldValue(item, field));
}

/** The text of a value for full-text search: strings, list elements, object member strings (values joined by {@link VALUE_SEPARATOR}, which no unit bridges). */
export function searchableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(VALUE_SEPARATOR);
  if (value !== null && typeof value === 'object')
    return Object.values(value)
      .filter((v) => typeof v === 'string')
      .join(VALUE_SEPARATOR);
  return '';
}
