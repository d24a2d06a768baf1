/**
 * Matching: which indexed words each query term reaches (exact, stem, prefix, typos, synonyms,
 * the word two query words make joined, a word's two halves side by side, two words typed
 * together, the head of a compound the catalog does not have, the word a slip made of another
 * one that the other query words' items hold), and which documents are candidates, with the best
 * match of every term in each.
 *
 * A match is coded in one byte, lower is better: `1 + 2 · typos + (exact ? 0 : 1)`; 0 means no
 * match. So 1 is the exact word as typed, 2 a stem, prefix or synonym without typo, 3 a word
 * one typo away, 4 a word whose start is one typo away, 5 and 6 the same with two typos.
 *
 * @module
 */
import type { AnalyzedQuery, Analyzer, QueryTerm } from './analysis';
import { adjacent } from './adjacency';
import { headWords } from './compounds';
import { type LookupWork, MAX_DERIVATIONS } from './dictionary';
import type { SearchIndex } from './search-index';
import { proseFields } from './prose';
import { perIndex } from './scratch';
import { doubtStem, LIKELIER, labelled, marked, rankSlips, readStarts, slipLikelier, startsInContext } from './slips';
import { allowedTypos, farSubstitution, firstLetterTypos, LETTERS, TYPO_MAX_LENGTH, unknownWordTypos, withinTypos } from './typos';
import { nameRanges } from './name-ranges';
import { itemDimensions } from './item-dimensions';
import { holdsInOrder, mixedNumber, numberWordValue, UNITS } from './units';

/**
 * How many query terms a document must match (Meilisearch's names).
 *
 * - `frequency` (default): any term is optional; the `words` rule counts matched terms weighted
 *   by rarity, so a document matching the rare terms ("otterbox", "s7") ranks before one matching
 *   only frequent ones ("case").
 * - `last`: any term is optional; the `words` rule prefers documents matching the first terms of
 *   the query, dropping terms from the end.
 * - `all`: every term (stop words aside) is required.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, matchingStrategy: 'all' });
 * ```
 */
export type MatchingStrategy = 'last' | 'all' | 'frequency';

export { MAX_DERIVATIONS } from './dictionary';
/**
 * Shortest term matched as a prefix when it is not the last one (the last may be a word being
 * typed): a short finished word is no prefix ("ski jacket" is no "Skinny-Fit" jacket; 3 letters
 * before, which lost on two judged catalogs' tuning halves and gained on none).
 */
const MIN_INNER_PREFIX = 5;

/** A number with a point or a slash (see units.ts wholeNumberPattern). */
const WHOLE_NUMBER = /^\d+[./]\d+$/;
/** A query word that may be joined with the next one: two letters or more. */
const JOINABLE = /^\p{L}{2,}$/u;
/** A query word that may be split into two halves of two letters or more. */
const SPLITTABLE = /^\p{L}{4,}$/u;

/** One analysed query against one index. */
export interface QueryMatch {
  /** The query as read: a term that is two catalog words typed together is those two terms. */
  readonly query: AnalyzedQuery;
  /** Number of terms. */
  readonly n: number;
  /** Terms that count in the rules (stop words aside, unless every term is one). */
  readonly counted: readonly number[];
  /** Typos allowed per term. */
  readonly allowed: readonly number[];
  /** Words reached by each term, and their code (gather adds a slip's reading: see readCoherently). */
  readonly termWords: readonly number[][];
  readonly termCodes: readonly number[][];
  /** How many of each term's words it reached itself, before gather added a reading (each gather starts again from them). */
  readonly reached: readonly number[];
  /**
   * Documents matching multi-word synonyms: the terms `from`..`to` they stand for, with the code
   * of that match (default 2, as a synonym), and the `words` whose positions are the term's there.
   */
  readonly phrases: readonly {
    readonly from: number;
    readonly to: number;
    readonly docs: readonly number[];
    readonly code?: number;
    readonly words?: readonly number[];
  }[];
  /** Work done by the dictionary, and the posting entries read to find words side by side (`postings`). */
  readonly work: MatchWork;
  /**
   * The words term `t` reaches with one typo more than it was allowed (as many as a word the
   * catalog lacks takes: see unknownWordTypos), whole words it did not reach, and their codes
   * (see readCoherently); looked up when asked.
   */
  readonly looser: (t: number) => { readonly words: readonly number[]; readonly codes: readonly number[] };
}

/**
 * The words each term of `query` reaches in `index`.
 *
 * @example
 * ```ts
 * const m = matchQuery(index, analyzer, analyzer.query('samsnug', 10));
 * m.termWords[0]!.map((w) => index.dictionary.words[w]); // ['samsung', …]
 * ```
 */
export function matchQuery(index: SearchIndex, analyzer: Analyzer, query: AnalyzedQuery): QueryMatch {
  return matchWith(index, analyzer, query, { nodes: 0, words: 0, postings: 0 });
}

/** The work of reading a query: the dictionary's, and the posting entries read to find two words side by side. */
export type MatchWork = LookupWork & { postings: number };

/** {@link adjacent}, counting the postings it merges in `work`. */
function besides(index: SearchIndex, a: number, b: number, work: MatchWork): number[] {
  work.postings += index.docs(a).length + index.docs(b).length;
  return adjacent(index, a, b);
}

/**
 * {@link matchQuery}, adding the dictionary's work to `work`: a query read again, a term split or
 * two joined (at most {@link STRIDE} times over, however the readings would turn), adds to it.
 */
function matchWith(index: SearchIndex, analyzer: Analyzer, query: AnalyzedQuery, work: MatchWork, rewrites = 0): QueryMatch {
  const { terms } = query;
  const n = terms.length;
  const dict = index.dictionary;
  const termWords: number[][] = [];
  const termCodes: number[][] = [];
  const allowed: number[] = [];
  // Words a far first key reaches, and their codes, in turn.
  const farKeys: number[] = [];
  const retries: (() => QueryMatch | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const term = terms[i]!;
    const codes = new Map<number, number>();
    const offer = (word: number, code: number) => {
      const had = codes.get(word);
      if (had === undefined || code < had) codes.set(word, code);
    };
    const exact = dict.id(term.text);
    // A decimal or a fraction takes no typo: "20.05" is another size, not a slip for "20.06".
    let typos = query.asWritten || WHOLE_NUMBER.test(term.text) ? 0 : allowedTypos(term.text.length);
    const prefix = !query.asWritten && (i === n - 1 || term.text.length >= MIN_INNER_PREFIX);
    // The words of the stems of the term's whole slips (code 3) not in `skip`: "runs" of "runnng"'s running.
    const slipForms = (skip?: ReadonlySet<number>): Set<number> => {
      const forms = new Set<number>();
      for (const [word, code] of codes)
        if (code === 3 && !skip?.has(word)) for (const other of index.stems.get(analyzer.stem(dict.words[word]!)) ?? []) forms.add(other);
      return forms;
    };
    const find = () => {
      if (typos > 0 || prefix) {
        // With typos, a whole word (3: one typo, 5: two) before a word only its start reaches (4, 6).
        // A far key for the first letter costs a typo more (see firstLetterTypos): past the allowed
        // typos, the word is held back, and reached only when the term reaches nothing else (a
        // spelling by ear, "cayak" for kayak, is a far key too, and then the only reading).
        const reach = (word: number, t: number) => {
          if (word === exact) return offer(word, 1);
          if (t === 0) return offer(word, 2);
          const text = dict.words[word]!;
          // A slip that makes a stop word ("wath": "with") names nothing: the term reads its other words.
          if (analyzer.stopWords.has(text)) return;
          const whole = withinTypos(term.text, text, t);
          const cost = firstLetterTypos(term.text, text, t, !whole, analyzer.keyboard);
          // A far key replacing a letter is a likelier reading than none, but after the slips a
          // finger makes (a letter left out, doubled, swapped, or a neighbouring key): "coler" is a
          // cooler before a cover.
          const far = whole && cost === 1 && farSubstitution(term.text, text, analyzer.keyboard);
          if (cost <= typos) offer(word, whole && !far ? 1 + 2 * cost : 2 + 2 * cost);
          else farKeys.push(word, whole ? 1 + 2 * typos : 2 + 2 * typos);
        };
        farKeys.length = 0;
        dict.lookup(term.text, typos, prefix, MAX_DERIVATIONS, reach, work);
      } else if (exact >= 0) offer(exact, 1);
      const typed = exact < 0 ? new Set([...codes].filter(([, code]) => code <= 2).map(([word]) => word)) : undefined;
      for (const word of index.stems.get(term.stem) ?? []) offer(word, word === exact ? 1 : 2);
      // Stemmers are not symmetric on every pair ("lenses" → lens, but "lens" → len): the word that
      // is the term's stem, and the words whose stem is the term, match too.
      const asWord = dict.id(term.stem);
      if (asWord >= 0) offer(asWord, asWord === exact ? 1 : 2);
      if (term.stem !== term.text) for (const word of index.stems.get(term.text) ?? []) offer(word, word === exact ? 1 : 2);
      // A word the catalog lacks: its stem's words and its starts, as likely as the items say (slips.ts).
      if (typed) {
        doubtStem(index, term.stem, typed, codes);
        if (prefix) readStarts(index, typed, [asWord, ...(index.stems.get(term.stem) ?? []), ...(index.stems.get(term.text) ?? [])], codes);
      }
      // A number is its value however written: "3" is "3.0", "1/2" is "0.5".
      for (const word of sameValue(index, term.text)) offer(word, word === exact ? 1 : 2);
      // A unit's name typed without a number ("pint glasses", "gallon bucket") reaches the word
      // the items' numbers made it ("4 pt", "5 gal").
      const unit = unitWord(index, term.text);
      if (unit >= 0) offer(unit, 2);
      if (codes.size === 0) for (let k = 0; k < farKeys.length; k += 2) offer(farKeys[k]!, farKeys[k + 1]!);
      farKeys.length = 0;
      // A word the catalog lacks, one typo from a whole word, means that word and the words of its
      // stem, as the word typed right would reach them ("runnng" reaches "running", then "run" and
      // "runs"), a step after it: as the start of a word one typo away (the stem is to the word what
      // the word is to the exact one).
      if (exact < 0 && !index.stems.get(term.stem)?.length) for (const word of slipForms()) offer(word, 4);
    };
    find();
    // A word too short for a typo, read with one: the starts of its slips are no reading (three
    // letters and a typo start most words: "vae" starts "versatile" as "ve"), but its whole slips
    // are, by a far key too ("mes": men), and so are the forms of a slip's stem ("bowls" beside
    // "bowl"), as for a longer word. `kept`: words it reached before.
    const dropSlipStarts = (kept: ReadonlySet<number>) => {
      const forms = slipForms(kept);
      for (const [word, code] of codes)
        if (code > 3 && !kept.has(word) && !forms.has(word) && !withinTypos(term.text, dict.words[word]!, typos)) codes.delete(word);
    };
    // A word the catalog lacks, too short for a typo ("bol", "bely"), whose starts (if it is being
    // typed) or stem's words few labels hold ("Bollywood", the descriptions' "bold" and "belies"):
    // its whole words one typo away are read too, as a longer word's are, and kept, before or
    // beside those, only where ten times as many labels hold them ("bowl", "belt"; see slips.ts).
    if (exact < 0 && typos === 0 && codes.size > 0 && !term.stopWord && !query.asWritten && LETTERS.test(term.text)) {
      const saved = [...codes];
      typos = unknownWordTypos(term.text.length);
      if (typos > 0) {
        codes.clear();
        find();
        if (saved.some(([word, code]) => code === 2 && (codes.get(word) ?? 0) > 2)) {
          dropSlipStarts(new Set(saved.map(([word]) => word)));
        } else {
          typos = 0;
          codes.clear();
          for (const [word, code] of saved) codes.set(word, code);
        }
      }
    }
    const reread = (q: AnalyzedQuery) => matchWith(index, analyzer, q, work, rewrites + 1);
    // A term that reaches nothing alone but a word joined with a neighbour as typed ("run ning")
    // is half of that word: the query reads it as the one word, as the shopper meant it, when the
    // neighbour is no word of its own either, or a form of the joined word ("run" of "running"),
    // which the one word still reaches. Else ("ear buds" where the catalog has "earbuds" and
    // "buds") both terms match the joined word, by the join step below.
    const alone = codes.size === 0 && !term.stopWord && !query.asWritten;
    const joinsPrevious = alone && i > 0 && joinedWords(index, analyzer, terms[i - 1]!, term).size > 0;
    const joinsNext = alone && i + 1 < n && joinedWords(index, analyzer, term, terms[i + 1]!).size > 0;
    if (alone && rewrites < STRIDE) {
      const formOf = (at: number, other: QueryTerm) =>
        index.wordsOf(other.text, other.stem).length === 0 || analyzer.stem(terms[at]!.text + terms[at + 1]!.text) === other.stem;
      const at = joinsPrevious && formOf(i - 1, terms[i - 1]!) ? i - 1 : joinsNext && formOf(i, terms[i + 1]!) ? i : -1;
      if (at >= 0) return reread(joinTerms(analyzer, query, at));
    }
    // A term that reaches nothing may be two words typed together, or half of one typed in two
    // (joined with a neighbour, it is a word as typed, read so above; a fragment of under 4
    // letters, a typo away). Past the rewrites, one that makes a catalog word joined with a
    // neighbour is read so by the join step below.
    const lost = alone && !joinsPrevious && !joinsNext;
    // Two words typed together are one slip, likelier than the two typos a word they make reaches
    // ("screwdriverset" is a screwdriver set, not screwdrivers).
    if (
      rewrites < STRIDE &&
      n < STRIDE &&
      typos >= 2 &&
      !term.stopWord &&
      !query.asWritten &&
      codes.size > 0 &&
      Math.min(...codes.values()) >= 5
    ) {
      const halves = runTogether(index, analyzer, term.text, work);
      if (halves) return reread(splitTerm(analyzer, query, i, halves));
    }
    if (lost && rewrites < STRIDE) {
      // Two words typed together, or failing that, with a slip in one of them ("bluetoothheadest").
      const halves =
        n < STRIDE ? (runTogether(index, analyzer, term.text, work) ?? runTogether(index, analyzer, term.text, work, true)) : undefined;
      if (halves) return reread(splitTerm(analyzer, query, i, halves));
      // Half of a word typed in two, joined as typed; or, a fragment under 4 letters, joined with a
      // typo, unless a typo of its own makes a word beside another query word ("apple watch bnd"
      // is a band, not a "watchband"): one slip is likelier than a split and a slip.
      let at = splitWord(index, terms, i, false, work);
      if (at < 0 && term.text.length < 4) {
        at = splitWord(index, terms, i, true, work);
        const last = at + 1 === n - 1;
        const joinedPrefix = (joined: string) => last || joined.length >= MIN_INNER_PREFIX;
        if (at >= 0 && slipLikelier(index, analyzer, terms, i, at, joinedPrefix, work)) at = -1;
      }
      if (at >= 0) return reread(joinTerms(analyzer, query, at));
    }
    // Else a word the catalog has nowhere, not even a typo away, is misspelt more than its length
    // usually allows (or names what the catalog does not sell: see dropStrangers), or, failing
    // that and short enough to be a fragment, half of a word typed in two with a typo (once every
    // term is read: see below).
    const more = LETTERS.test(term.text) ? unknownWordTypos(term.text.length) : 0;
    const retry = (): QueryMatch | undefined => {
      if (more > typos) {
        const short = typos === 0;
        typos = more;
        find();
        if (short && [...codes.values()].some((code) => code <= 3)) dropSlipStarts(new Set());
        allowed[i] = typos;
        termWords[i] = [...codes.keys()];
        termCodes[i] = [...codes.values()];
      }
      if (codes.size === 0 && rewrites < STRIDE && term.text.length < MIN_INNER_PREFIX) {
        const at = splitWord(index, terms, i, true, work);
        if (at >= 0) return reread(joinTerms(analyzer, query, at));
      }
      return undefined;
    };
    if (lost) retries.push(retry);
    allowed.push(typos);
    termWords.push([...codes.keys()]);
    termCodes.push([...codes.values()]);
  }
  // Only the one word of the query that reaches nothing: two or more such words are more likely
  // a name the catalog does not have ("ralph lauren" where no item says it) than as many slips,
  // and their typos would reach other products.
  if (retries.length === 1) {
    const other = retries[0]!();
    if (other) return other;
  }
  if (n > 1 && !query.asWritten) startsInContext(index, terms, termWords, termCodes);
  if (!query.asWritten) rankSlips(index, terms, termWords, termCodes);
  // Two query words written as one in the catalog ("shower head" finds "showerhead", "ear buds"
  // "earbuds"): the joined word, or a word of its stem, matches both terms, as a synonym does;
  // the joined word itself as typed (a space is one slip: "dish washer" is a dishwasher before a
  // "Dish Soap for Washer"), and the words side by side still rank first by proximity.
  // Words of two letters or more, so a lone letter makes no plural ("galaxy s" is no "galaxys").
  // One may be a stop word ("mo to"), which the lost-word test above leaves to the join as typed:
  // a half that reaches nothing ("sof as") reads better as the one word, stem and all.
  for (let i = 0; i + 1 < n; i++) {
    const [a, b] = [terms[i]!, terms[i + 1]!];
    const typed = dict.id(a.text + b.text);
    for (const word of joinedWords(index, analyzer, a, b, true))
      for (const t of [i, i + 1]) addCode(termWords[t]!, termCodes[t]!, word, word === typed ? 1 : 2);
  }
  const phrases: { from: number; to: number; docs: number[]; code?: number; words?: number[] }[] = [];
  // The mirror: one query word the catalog writes as two ("earbuds" for "ear buds", "doorknob"
  // for "door knob"), when the word itself is rarer than each half: documents whose name holds
  // the two halves side by side match the term as typed (a space is one slip, as for the join
  // above: "iphonese" is the iPhone SE, not the stem "iphones"), or the second half in another
  // form as a stem would ("doorknobs": "door knob"; halves of two letters or more, no stop word).
  for (let i = 0; i < n; i++) {
    const { text, stopWord } = terms[i]!;
    if (stopWord || !SPLITTABLE.test(text)) continue;
    const own = dict.id(text);
    const ownDf = own < 0 ? 0 : index.docs(own).length;
    const found: number[][] = [];
    const forms: number[][] = [];
    // The halves' words, read as the term's where positions are (proximity, subject, attribute).
    const halves = new Set<number>();
    for (let p = 2; p + 2 <= text.length; p++) {
      const [x, y] = [text.slice(0, p), text.slice(p)];
      const a = dict.id(x);
      if (a < 0 || analyzer.stopWords.has(x) || analyzer.stopWords.has(y)) continue;
      // The second half as typed, or a form of it ("watchbands": the items writing "watch band"),
      // no stop word either ("cartons" is no "cart on"). The word in that form must be rarer than
      // each half too: "earbud" reads no "ear buds" where the catalog writes "earbuds" as often.
      for (const b of index.wordsOf(y, analyzer.stem(y))) {
        const form = dict.words[b]!;
        if (analyzer.stopWords.has(form)) continue;
        const whole = form === y ? own : dict.id(x + form);
        const wholeDf = Math.max(ownDf, whole < 0 ? 0 : index.docs(whole).length);
        if (wholeDf >= Math.min(index.docs(a).length, index.docs(b).length)) continue;
        const docs = besides(index, a, b, work);
        if (docs.length === 0) continue;
        (form === y ? found : forms).push(docs);
        halves.add(a).add(b);
      }
    }
    const words = [...halves];
    if (found.length > 0)
      phrases.push({ from: i, to: i, docs: found.length === 1 ? found[0]! : [...new Set(found.flat())], code: 1, words });
    if (forms.length > 0) phrases.push({ from: i, to: i, docs: [...new Set(forms.flat())], words });
  }
  // A number and its unit ("55 inch", "65" in "32-65 inch", "1/2 in.") match the names writing a
  // range of that unit around it ("Fits 32 in. - 70 in. TVs"), as a phrase synonym does.
  for (const { from, to, value, unit } of query.measures) {
    const ranges = nameRanges(index).get(unit);
    if (!ranges) continue;
    const docs: number[] = [];
    for (let k = 0; k < ranges.docs.length; k++)
      if (ranges.lo[k]! <= value && value <= ranges.hi[k]! && docs[docs.length - 1] !== ranges.docs[k]) docs.push(ranges.docs[k]!);
    if (docs.length > 0) phrases.push({ from, to, docs });
  }
  // A number with a slash the query splits ("3/4 pvc") matches the items writing it as one
  // number ("3/4 in.") as typed, as it matches those writing it as two ("iPhone 7/8").
  for (const { from, to, word } of query.fractions)
    for (const w of [dict.id(word), ...sameValue(index, word)])
      if (w >= 0) for (let i = from; i <= to; i++) addCode(termWords[i]!, termCodes[i]!, w, 1);
  // A mixed number and a decimal of one value ("1-1/2" or "1 1/2", and "1.5"): the query's
  // decimal matches the names writing the whole part and the fraction side by side, its whole
  // part and fraction the items writing the decimal, as a phrase synonym does.
  for (let i = 0; i < n; i++) {
    const text = terms[i]!.text;
    const value = numberWordValue(text);
    if (value === undefined) continue;
    const parts = text.includes('.') ? mixedNumber(value) : undefined;
    if (parts) {
      const [whole, fraction] = [dict.id(parts[0]), dict.id(parts[1])];
      const docs = whole >= 0 && fraction >= 0 ? besides(index, whole, fraction, work) : [];
      if (docs.length > 0) phrases.push({ from: i, to: i, docs });
    }
    const next = i + 1 < n ? terms[i + 1]!.text : '';
    const part = next.includes('/') && /^\d+$/.test(text) ? numberWordValue(next) : undefined;
    if (part === undefined || part >= 1) continue;
    const docs = holding(index, numberWords(index).get(value + part) ?? []);
    if (docs.length > 0) phrases.push({ from: i, to: i + 1, docs });
  }
  for (const { from, to, words } of query.synonyms) {
    const reach = words.map((w) => index.wordsOf(w, analyzer.stem(w)));
    if (reach.length === 1) {
      for (let i = from; i <= to; i++) for (const word of reach[0]!) addCode(termWords[i]!, termCodes[i]!, word, 2);
      continue;
    }
    phrases.push({ from, to, docs: intersect(reach.map((ids) => holding(index, ids))) });
    // Their words also count where positions are read (proximity, attribute).
    for (let i = from; i <= to; i++) for (const ids of reach) for (const word of ids) addCode(termWords[i]!, termCodes[i]!, word, 2);
  }
  // The query's last word reaching nothing, not even with its neighbour, as two halves or through
  // a synonym: the items its head names, if it is a compound the catalog does not have (see
  // compounds.ts). It is no better matched than through a stem: the word as typed is in none of
  // them. The last word only, the one naming what is sought: an unknown word before it is more
  // often a brand the catalog does not sell ("whirlpool fridge"), whose tail ("pool") would
  // outweigh the rest.
  const last = terms.findLastIndex((t) => !t.stopWord);
  if (last >= 0 && termWords[last]!.length === 0 && !phrases.some((p) => p.from <= last && last <= p.to))
    for (const word of headWords(index, analyzer, terms[last]!.text)) addCode(termWords[last]!, termCodes[last]!, word, 2);
  const content = terms.flatMap((t, i) => (t.stopWord ? [] : [i]));
  const counted = content.length > 0 ? content : terms.map((_, i) => i);
  const looser = (t: number) => {
    const text = terms[t]!.text;
    const more = allowed[t]! + 1;
    const out = { words: [] as number[], codes: [] as number[] };
    if (!loosens(query, allowed, t)) return out;
    const had = new Set(termWords[t]);
    dict.lookup(
      text,
      more,
      false,
      MAX_DERIVATIONS,
      (word, typos) => {
        const cost = firstLetterTypos(text, dict.words[word]!, typos, false, analyzer.keyboard);
        if (cost <= more && !had.has(word) && !analyzer.stopWords.has(dict.words[word]!)) {
          out.words.push(word);
          // A far key ranks after a finger's slip here too (see find).
          out.codes.push(cost === 1 && farSubstitution(text, dict.words[word]!, analyzer.keyboard) ? 4 : 1 + 2 * cost);
        }
      },
      work,
    );
    return out;
  };
  return { query, n, counted, allowed, termWords, termCodes, reached: termWords.map((w) => w.length), phrases, work, looser };
}

/**
 * Whether term `t` may take one typo more than `allowed` gives it (see QueryMatch.looser): a word
 * of letters short enough that a word the catalog lacks would take more, in a query not as written.
 */
function loosens(query: AnalyzedQuery, allowed: readonly number[], t: number): boolean {
  const text = query.terms[t]!.text;
  return !query.asWritten && LETTERS.test(text) && unknownWordTypos(text.length) > allowed[t]!;
}

/** The number words of an index by value (see {@link numberWordValue}), read once per index on the first query with a number. */
const numberWords = perIndex((index: SearchIndex): ReadonlyMap<number, readonly number[]> => {
  const out = new Map<number, number[]>();
  const words = index.dictionary.words;
  for (let w = 0; w < words.length; w++) {
    const value = numberWordValue(words[w]!);
    if (value === undefined) continue;
    const list = out.get(value);
    if (list) list.push(w);
    else out.set(value, [w]);
  }
  return out;
});

/**
 * The canonical word of the unit a folded query word names (`UNITS`: "pint" is "pt", "feet"
 * "ft"), when it is another word of two letters or more the catalog holds, else -1. One letter
 * ("m", "l", "g") is too many other things without its number: sizes, models, initials.
 */
function unitWord(index: SearchIndex, text: string): number {
  const unit = Object.hasOwn(UNITS, text) ? UNITS[text]! : undefined;
  return unit === undefined || unit === text || unit.length < 2 || unit.includes(' ') ? -1 : index.dictionary.id(unit);
}

/** The indexed number words of the value of `text`, when it is a number word: "3.0" and "3" for "3". */
function sameValue(index: SearchIndex, text: string): readonly number[] {
  const value = numberWordValue(text);
  return value === undefined ? [] : (numberWords(index).get(value) ?? []);
}

/**
 * Shortest half of a word read as two words typed together ("tvmount"); the word is longer than
 * two such halves, so no four letters ("lele") are two words of two letters.
 */
const MIN_HALF = 2;
/** Longest word read as two typed together with a slip in one: two words of a dozen letters. */
const MAX_SLIPPED_PAIR = 24;

/**
 * The two catalog words a query word that reaches none (not as typed, stem, prefix or with the
 * typos its length allows) is made of, typed together ("galaxycase", "bathroomvanity"), when
 * some item holds both: of the splits, the one most items hold; halves of {@link MIN_HALF}
 * letters or more, no stop word. Such a term is no word, so no match of it is lost; read as two
 * terms, its words count as the shopper's two words do in every rule (rarity, proximity, the
 * query's head), where a phrase would match without saying which word names the item. Before the
 * extra typo of a word the catalog has nowhere (see unknownWordTypos): two words typed together
 * are a likelier slip than two typos in one. With `slips`, one half may be misspelt by one typo,
 * the other typed right ("bluetoothheadest", "samsnugcharger"): a space left out and one slip are
 * as likely as the two typos the word would otherwise take.
 */
function runTogether(index: SearchIndex, analyzer: Analyzer, text: string, work: LookupWork, slips = false): [string, string] | undefined {
  if (text.length <= 2 * MIN_HALF || !LETTERS.test(text)) return undefined;
  // A half's words of MIN_HALF letters or more: a stem may be shorter ("ued" → "u").
  const typed = (half: string): number[] =>
    index.wordsOf(half, analyzer.stem(half)).filter((w) => index.dictionary.words[w]!.length >= MIN_HALF);
  // A misspelt half's whole words one typo away, where its length allows one (no stop word).
  const misspelt = (half: string): number[] => {
    const found: number[] = [];
    if (allowedTypos(half.length) > 0) index.dictionary.lookup(half, 1, false, MAX_DERIVATIONS, (w) => found.push(w), work);
    return found.filter((w) => !analyzer.stopWords.has(index.dictionary.words[w]!));
  };
  // With `slips`, the longest start and the longest end of 3 letters or more that are words as
  // typed (two letters, "gs", are too many words' abbreviations), each beside the rest with one
  // slip: two lookups at most, whatever the word's length.
  let first = 0;
  let last = text.length;
  if (slips && text.length > MAX_SLIPPED_PAIR) return undefined;
  if (slips) {
    for (let p = text.length - MIN_HALF; p >= 3 && first === 0; p--) if (typed(text.slice(0, p)).length > 0) first = p;
    for (let p = MIN_HALF; p + 3 <= text.length && last === text.length; p++) if (typed(text.slice(p)).length > 0) last = p;
  }
  const readings = (p: number, x: string, y: string): [number[], number[]][] => {
    if (!slips) return [[typed(x), typed(y)]];
    const out: [number[], number[]][] = [];
    if (p === first) out.push([typed(x), misspelt(y)]);
    if (p === last) out.push([misspelt(x), typed(y)]);
    return out;
  };
  const labels = ~proseFields(index);
  let best: [string, string] | undefined;
  let most = 0;
  for (let p = MIN_HALF; p + MIN_HALF <= text.length; p++) {
    const [x, y] = [text.slice(0, p), text.slice(p)];
    if (analyzer.stopWords.has(x) || analyzer.stopWords.has(y)) continue;
    for (const [xs, ys] of readings(p, x, y)) {
      if (xs.length === 0 || ys.length === 0) continue;
      // A half no item's label holds ("lets" of "walllets" only in descriptions) is no word a
      // shopper types for a product: the word is more likely misspelt.
      if (labelled(index, xs, labels, 1) === 0 || labelled(index, ys, labels, 1) === 0) continue;
      // The items holding both, counted once each (a byte per item: a half's postings may be most of the catalog).
      const inX = marked(index, xs);
      let both = 0;
      if (inX)
        for (const w of ys)
          for (const d of index.docs(w))
            if (inX[d] === 1) {
              inX[d] = 2;
              both++;
            }
      if (both > most) [best, most] = [[x, y], both];
    }
  }
  return best;
}

/**
 * Where a query word that reaches none (not as typed, stem, prefix or with the typos its length
 * allows) is half of one word typed in two ("su it", "otte rbx"): the first of the two terms that,
 * joined, reach a word as typed (or by a prefix), or with `typos`, with the typos the joined
 * word's length allows (the next term tried before the previous one); else -1.
 */
function splitWord(index: SearchIndex, terms: AnalyzedQuery['terms'], i: number, typos: boolean, work: LookupWork): number {
  for (const at of [i, i - 1]) {
    if (at < 0 || at + 1 >= terms.length) continue;
    const joined = terms[at]!.text + terms[at + 1]!.text;
    // A stop word may be the other half ("su it").
    if (joined.length > TYPO_MAX_LENGTH || !LETTERS.test(joined)) continue;
    let reached = false;
    const prefix = at + 1 === terms.length - 1 || joined.length >= MIN_INNER_PREFIX;
    index.dictionary.lookup(joined, typos ? allowedTypos(joined.length) : 0, prefix, 1, () => (reached = true), work);
    if (reached) return at;
  }
  return -1;
}

/**
 * The words two query words make joined, as one word or a word of its stem ("ear buds":
 * "earbuds"), for two words of two letters or more, neither a stop word, or with `stopWords` one
 * of them: a word typed in two may leave a stop word ("mo to g plus" is a moto).
 */
function joinedWords(index: SearchIndex, analyzer: Analyzer, a: QueryTerm, b: QueryTerm, stopWords = false): Set<number> {
  if ((a.stopWord || b.stopWord) && (!stopWords || (a.stopWord && b.stopWord))) return new Set();
  if (!JOINABLE.test(a.text) || !JOINABLE.test(b.text)) return new Set();
  const joined = a.text + b.text;
  const stem = analyzer.stem(joined);
  // A stem one of the two words has already ("ear" + "s") is no joined word: only the word as written.
  if (stem === a.stem || stem === b.stem) {
    const id = index.dictionary.id(joined);
    return new Set(id >= 0 ? [id] : []);
  }
  return new Set(index.wordsOf(joined, stem));
}

/** Runs of terms (synonyms, measures) with every index moved by `move`. */
function moved<T extends { readonly from: number; readonly to: number }>(
  runs: readonly T[],
  move: (k: number, end: boolean) => number,
): T[] {
  return runs.map((r) => ({ ...r, from: move(r.from, false), to: move(r.to, true) }));
}

/** `query` with terms `at` and `at + 1` read as one word (the runs of terms after them shifted back). */
function joinTerms(analyzer: Analyzer, query: AnalyzedQuery, at: number): AnalyzedQuery {
  const { terms } = query;
  const text = terms[at]!.text + terms[at + 1]!.text;
  const move = (k: number) => (k > at ? k - 1 : k);
  return {
    ...query,
    terms: [...terms.slice(0, at), { text, stem: analyzer.stem(text), stopWord: false }, ...terms.slice(at + 2)],
    synonyms: moved(query.synonyms, move),
    measures: moved(query.measures, move),
    fractions: moved(query.fractions, move),
    dimensions: moved(query.dimensions, move),
  };
}

/** `query` with term `i` read as the two words `halves` (a run of terms ending at it ends at both). */
function splitTerm(analyzer: Analyzer, query: AnalyzedQuery, i: number, halves: readonly [string, string]): AnalyzedQuery {
  const { terms } = query;
  const move = (k: number, end: boolean) => (k > i || (end && k === i) ? k + 1 : k);
  return {
    ...query,
    terms: [...terms.slice(0, i), ...halves.map((w) => ({ text: w, stem: analyzer.stem(w), stopWord: false })), ...terms.slice(i + 1)],
    synonyms: moved(query.synonyms, move),
    measures: moved(query.measures, move),
    fractions: moved(query.fractions, move),
    dimensions: moved(query.dimensions, move),
  };
}

function addCode(words: number[], codes: number[], word: number, code: number): void {
  const at = words.indexOf(word);
  if (at < 0) {
    words.push(word);
    codes.push(code);
  } else if (code < codes[at]!) codes[at] = code;
}

/** The documents holding one of `words`, each once. */
function holding(index: SearchIndex, words: Iterable<number>): number[] {
  const docs = new Set<number>();
  for (const w of words) for (const d of index.docs(w)) docs.add(d);
  return [...docs];
}

function intersect(lists: readonly number[][]): number[] {
  if (lists.length === 0) return [];
  const [first, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  const sets = rest.map((l) => new Set(l));
  return first!.filter((d) => sets.every((s) => s.has(d)));
}

/**
 * The candidates of a query: documents matching at least one counted term (every one with
 * `all`), among `allowed` when filters apply, with the best code of each term in each.
 * A term the catalog has only through typos that reach no item holding another query word
 * matches nothing, when another term is found as typed (see {@link dropStrangers}).
 */
export interface Candidates {
  /** Document numbers. */
  readonly docs: Int32Array;
  /** Best code of term i in candidate c: `codes[c · n + i]`. */
  readonly codes: Uint8Array;
  /** Documents matching each term, over the whole index (rarity). */
  readonly df: Float64Array;
  /** Posting entries read. */
  readonly postingsRead: number;
  /**
   * Whether a term's words may sit in candidates where the term does not count (its code there
   * is 0: a slip's reading beside no query word as typed, a dimension's number, a dropped
   * stranger): the rules reading the items' words then check each word's term (see liveSlot).
   */
  readonly partial: boolean;
}

/** Most terms of a query (the service passes at most this many). */
const STRIDE = 10;
// Per-document scratch, reused by every query on one index (queries run synchronously).
const scratch = perIndex((index: SearchIndex) => {
  const size = index.items.length;
  return { codes: new Uint8Array(size * STRIDE), flags: new Uint8Array(size), seen: new Int32Array(size) };
});

/**
 * Collects the candidates of a match.
 *
 * @example
 * ```ts
 * const { docs } = gather(index, matchQuery(index, analyzer, analyzer.query('galaxy case', 10)), 'frequency');
 * ```
 */
export function gather(index: SearchIndex, match: QueryMatch, strategy: MatchingStrategy, allowed?: Uint8Array): Candidates {
  const n = Math.min(match.n, STRIDE);
  const { codes, flags, seen } = scratch(index);
  let touched = 0;
  let postingsRead = 0;
  const df = new Float64Array(n);
  // A reading an earlier gather of this match added is read again, not marked as a word of its own.
  for (let i = 0; i < match.termWords.length; i++) {
    match.termWords[i]!.length = match.reached[i]!;
    match.termCodes[i]!.length = match.reached[i]!;
  }
  // Marks term `i` with `code` in `docs`: one call per posting list, the loop inline (a call per
  // posting through a closure kept `touched` and the counts in its context, not in registers).
  const markAll = (docs: ArrayLike<number>, i: number, code: number) => {
    postingsRead += docs.length;
    let found = touched;
    let count = 0;
    for (let j = 0; j < docs.length; j++) {
      const doc = docs[j]!;
      const at = doc * STRIDE + i;
      const had = codes[at]!;
      if (had === 0) {
        if (flags[doc] === 0) {
          flags[doc] = 1;
          seen[found++] = doc;
        }
        count++;
        codes[at] = code;
      } else if (code < had) codes[at] = code;
    }
    touched = found;
    df[i]! += count;
  };
  for (let i = 0; i < n; i++) {
    const words = match.termWords[i]!;
    const wc = match.termCodes[i]!;
    for (let k = 0; k < words.length; k++) markAll(index.docs(words[k]!), i, wc[k]!);
  }
  for (const { from, to, docs, code, words } of match.phrases)
    for (let i = from; i <= to; i++) {
      markAll(docs, i, code ?? 2);
      // Where the term matched (see Candidates.partial), its halves' positions are its own; as a
      // form of it (2), whatever the document's code: a half alone is not the word as typed, and
      // in a document that matched the term by a typo it would read better than that match.
      for (const word of words ?? [])
        if (!match.termWords[i]!.includes(word)) {
          match.termWords[i]!.push(word);
          match.termCodes[i]!.push(2);
        }
    }

  const counted = match.counted;
  const marks: Marks = { n, codes, seen, touched, df };
  // Whether some term's words are in candidates where it does not count (see Candidates.partial).
  let partial = keepDimensions(index, match, marks);
  partial = dropStrangers(match, counted, marks) || partial;
  postingsRead += readCoherently(index, match, counted, marks, markAll);
  partial ||= match.termWords.some((w, i) => w.length > match.reached[i]!);
  inOrder(seen, touched, flags);
  // One pass over the touched documents keeps the candidates with their codes, and clears what this query wrote.
  const kept = new Int32Array(touched);
  const keptCodes = new Uint8Array(touched * n);
  const least = strategy === 'all' ? counted.length : 1;
  let size = 0;
  // One loop per document counts, copies and clears its codes (three cost more at tens of
  // thousands of documents). The terms are at most STRIDE (the service's MAX_QUERY_TERMS; a split
  // only when fewer), so every counted term has its codes.
  const isCounted = new Uint8Array(n);
  for (const i of counted) if (i < n) isCounted[i] = 1;
  for (let k = 0; k < touched; k++) {
    const doc = seen[k]!;
    const at = doc * STRIDE;
    const out = size * n;
    let matched = 0;
    for (let i = 0; i < n; i++) {
      const code = codes[at + i]!;
      if (code !== 0) {
        matched += isCounted[i]!;
        codes[at + i] = 0;
      }
      keptCodes[out + i] = code;
    }
    flags[doc] = 0;
    if (matched >= least && allowed?.[doc] !== 0) kept[size++] = doc;
  }
  const docs = size === touched ? kept : kept.slice(0, size);
  const outCodes = size === touched ? keptCodes : keptCodes.slice(0, size * n);
  return { docs, codes: outCodes, df, postingsRead, partial };
}

/**
 * What {@link gather} marked, which the steps after it narrow: the code of each term in each
 * touched document (`codes[doc * STRIDE + term]`, 0: no match), the touched documents (the first
 * `touched` of `seen`) and each term's document count.
 */
interface Marks {
  readonly n: number;
  readonly codes: Uint8Array;
  readonly seen: Int32Array;
  readonly touched: number;
  readonly df: Float64Array;
}

/**
 * A query's dimensions ("2x4") are numbers of an item's dimensions ("2 in. x 4 in. x 8 ft."): a
 * number of them matches as typed the documents writing the query's values in its order (in
 * any searched field), no better than a stem those whose dimensions merely hold it ("4 in. x 2 in.", "4 in. x 4
 * in."), and not those merely holding the digits ("4 in. Faucet with 2 Handles"): there its code
 * is 0 and its count one less.
 */
function keepDimensions(index: SearchIndex, match: QueryMatch, { n, codes, seen, touched, df }: Marks): boolean {
  if (match.query.dimensions.length === 0) return false;
  let zeroed = false;
  const written = itemDimensions(index);
  for (const { from, to, values } of match.query.dimensions) {
    // Where no item writes these dimensions, the query's "x" joined something else ("rtx 3080 x 2").
    let someItemWrites = false;
    for (let k = 0; k < touched && !someItemWrites; k++)
      someItemWrites = written.get(seen[k]!)?.tuples.some((tuple) => holdsInOrder(tuple, values)) === true;
    if (!someItemWrites) continue;
    const termValues = match.query.terms.map((term) => numberWordValue(term.text));
    for (let k = 0; k < touched; k++) {
      const dims = written.get(seen[k]!);
      if (dims?.tuples.some((tuple) => holdsInOrder(tuple, values))) continue;
      for (let t = from; t <= to && t < n; t++) {
        const at = seen[k]! * STRIDE + t;
        const value = termValues[t];
        if (value === undefined || codes[at] === 0) continue;
        if (dims?.words.has(value)) codes[at] = Math.max(codes[at]!, 2);
        else {
          codes[at] = 0;
          df[t]!--;
          zeroed = true;
        }
      }
    }
  }
  return zeroed;
}

/** Most items a query word may share with the others and still be read as a slip (see readCoherently). */
const FEW_TOGETHER = 10;

/**
 * A query word no item holds with another query word as typed (the others share items: "pin polo
 * shirt"; or of two, the one in fewer items: "camping hair"), or a short one that took no typo
 * and shares few ("cse" reaching a rare "csegus" beside "iphone 6s"), is likelier a slip that
 * made another word of the catalog, or a short word's slip its typos do not reach, than what the
 * shopper meant: it also matches, as a typo, the words one typo more away ("pink", "chair",
 * "case") in the items holding another query word as typed, and only there, so it adds no
 * candidate; words far more such items hold than hold the word as reached. The catalog's own
 * items are the context, as a spelling corrector's language model would be: a word means the
 * same in every catalog. Of such query words, the one sharing fewest items, then in fewest items.
 */
function readCoherently(
  index: SearchIndex,
  match: QueryMatch,
  counted: readonly number[],
  { n, codes, seen, touched, df }: Marks,
  markAll: (docs: ArrayLike<number>, t: number, code: number) => void,
): number {
  const terms = counted.filter((t) => t < n);
  if (terms.length < 2 || match.query.asWritten) return 0;
  // The most items a word may share with the others and still be a slip: none, or when it is
  // short enough to have taken no typo, a few ("cse" reaching a rare "csegus"); a longer one
  // already had its typo. Only a word that may take a typo more (letters, long enough) is one: a
  // size or a model number beside none of the others ("xl") is no slip, and takes no turn from
  // one (its limit, -2, is never reached).
  const limit = new Int32Array(n);
  let open = 0;
  for (const t of terms) {
    limit[t] = !loosens(match.query, match.allowed, t) ? -2 : match.allowed[t] === 0 ? FEW_TOGETHER : 0;
    if (limit[t]! >= 0) open++;
  }
  if (open === 0) return 0;
  const typed = (c: number) => c !== 0 && c <= 2;
  // Per such word, the documents holding it and another query word as typed (or its stem or a
  // prefix), counted until every one of them shares more than its limit.
  const together = new Int32Array(n);
  for (let k = 0; k < touched && open > 0; k++) {
    const at = seen[k]! * STRIDE;
    let asTyped = 0;
    for (const t of terms) if (typed(codes[at + t]!)) asTyped++;
    if (asTyped === 0) continue;
    for (const t of terms) if (codes[at + t] !== 0 && asTyped > (typed(codes[at + t]!) ? 1 : 0) && ++together[t]! === limit[t]! + 1) open--;
  }
  let lone = -1;
  for (const t of terms)
    if (
      together[t]! <= limit[t]! &&
      (lone < 0 || together[t]! < together[lone]! || (together[t] === together[lone] && df[t]! <= df[lone]!))
    )
      lone = t;
  // That word, when another has items.
  if (lone < 0 || terms.every((t) => t === lone || df[t] === 0)) return 0;
  // Beside a word of two letters or less that no item holds with the others either, it is likelier
  // half of a word typed in two ("ralph lo ren polo") than a slip.
  const fragment = (t: number) => terms.includes(t) && match.query.terms[t]!.text.length <= 2 && together[t] === 0;
  if (fragment(lone - 1) || fragment(lone + 1)) return 0;
  // A word another query word reaches is that word, not a slip for this one ("cat car" is no "car car").
  const others = new Set(terms.flatMap((t) => (t === lone ? [] : match.termWords[t]!)));
  const looser = match.looser(lone);
  const words = looser.words.filter((w) => !others.has(w));
  const wordCodes = looser.codes.filter((_, k) => !others.has(looser.words[k]!));
  const withOthers = (doc: number) => terms.some((t) => t !== lone && typed(codes[doc * STRIDE + t]!));
  let read = 0;
  const counts = words.map((w) => {
    let c = 0;
    const docs = index.docs(w);
    read += docs.length;
    for (const doc of docs) if (withOthers(doc)) c++;
    return c;
  });
  // Readings far likelier than the word as reached (that many times the items), and nearly as
  // likely as the best (a short word's typos reach many words, and one of them beside the others
  // by chance is no reading).
  const keep = Math.max(1, LIKELIER * together[lone]!, Math.max(0, ...counts) / 2);
  for (let k = 0; k < words.length; k++) {
    if (counts[k]! < keep) continue;
    markAll(
      index.docs(words[k]!).filter((doc) => withOthers(doc)),
      lone,
      wordCodes[k]!,
    );
    // The rules reading the items' words (proximity, subject, exactness, attribute) see the reading as the term's word.
    if (!match.termWords[lone]!.includes(words[k]!)) {
      match.termWords[lone]!.push(words[k]!);
      match.termCodes[lone]!.push(wordCodes[k]!);
    }
  }
  return read;
}

/**
 * Puts the first `touched` documents of `seen` (those `flags` marks) in increasing order: a
 * typed array sorts them without a comparator, and when they are a good share of the catalog a
 * pass over the flags, a byte per document, lists them in order for less.
 */
function inOrder(seen: Int32Array, touched: number, flags: Uint8Array): void {
  if (touched * 16 < flags.length) {
    seen.subarray(0, touched).sort();
    return;
  }
  for (let doc = 0, k = 0; k < touched; doc++) if (flags[doc] === 1) seen[k++] = doc;
}

/**
 * A query word the catalog does not have (a brand it does not sell: "ridgid drill" where no
 * item says "ridgid") reaches other words only through typos ("rigid"); when none of the items
 * those typos reach holds another query word as typed (or its stem or a prefix), they are other
 * products, and the rare typo would outweigh the words the query shares with the items it wants
 * (two such typos keep no item for each other). Such a term then matches no document (and its
 * count is 0), provided another term of the query is found as typed (or as its stem or a prefix).
 */
function dropStrangers(match: QueryMatch, counted: readonly number[], { n, codes, seen, touched, df }: Marks): boolean {
  const typed = (t: number) => t < n && df[t]! > 0 && match.termCodes[t]!.some((c) => c <= 2);
  if (!counted.some(typed)) return false;
  let dropped = false;
  for (const t of counted) {
    if (t >= n || df[t] === 0 || typed(t) || match.phrases.some((p) => p.from <= t && t <= p.to)) continue;
    let shared = false;
    for (let k = 0; k < touched && !shared; k++) {
      const at = seen[k]! * STRIDE;
      if (codes[at + t] === 0) continue;
      for (const i of counted) if (i !== t && i < n && codes[at + i] !== 0 && codes[at + i]! <= 2) shared = true;
    }
    if (shared) continue;
    for (let k = 0; k < touched; k++) codes[seen[k]! * STRIDE + t] = 0;
    df[t] = 0;
    dropped = true;
  }
  return dropped;
}
