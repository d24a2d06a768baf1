/**
 * How the catalog's items read a query word that is misspelt, typed in two, or still being typed:
 * a word is what the items' labels (their fields other than prose: name, brand, category) hold
 * and what they hold beside the query's other words. Each reading means the same in any catalog:
 * the items are the context, as a spelling corrector's language model would be.
 *
 * @module
 */
import type { AnalyzedQuery, Analyzer } from './analysis';
import { type LookupWork, MAX_DERIVATIONS } from './dictionary';
import { proseFields } from './prose';
import type { SearchIndex } from './search-index';
import { allowedTypos, LETTERS, unknownWordTypos } from './typos';

/** How many times more items (or labels) a reading must have than another to be read before it. */
export const LIKELIER = 10;

/**
 * The last query word, a whole word of the catalog ("fishing rod"), may still be a word being
 * typed ("blue jack" for a jacket): the longer words it starts ("rodeo", "jacket") match it only
 * where some item holds them beside another query word as typed (or its stem, or start); else
 * they are another word than the shopper's.
 */
export function startsInContext(index: SearchIndex, terms: AnalyzedQuery['terms'], termWords: number[][], termCodes: number[][]): void {
  const last = terms.length - 1;
  const { text, stem, stopWord } = terms[last]!;
  const dict = index.dictionary;
  // A number's starts are other numbers ("1": "128"), read as such elsewhere.
  if (stopWord || !LETTERS.test(text) || dict.id(text) < 0) return;
  const own = new Set(index.wordsOf(text, stem));
  const words = termWords[last]!;
  const codes = termCodes[last]!;
  const starts = words.filter((w, k) => codes[k] === 2 && !own.has(w) && dict.words[w]!.startsWith(text));
  if (starts.length === 0) return;
  const typed = new Set(typedWords(terms, termWords, termCodes, (k) => k >= last));
  if (typed.size === 0) return;
  // The starts' items are few next to the other words' (a longer word is rarer): their words are read, not the others' postings.
  const { tokens, offsets } = index;
  const F = index.searchable.length;
  const holdsTyped = (d: number) => {
    for (let k = offsets[d * F]!, end = offsets[d * F + F]!; k < end; k++) if (typed.has(tokens[k]!)) return true;
    return false;
  };
  for (const w of starts) {
    if (index.docs(w).some(holdsTyped)) continue;
    const at = words.indexOf(w);
    words.splice(at, 1);
    codes.splice(at, 1);
  }
}

/**
 * A word the catalog lacks that its stem's words reach as typed (`codes` 2, less the `typed`
 * ones its letters reach), and one typo from a whole word outside them (code 3) that the stem
 * starts ("protecter": protect and protective, or protector), or that {@link LIKELIER} times as
 * many labels hold ("ables": tables, not the descriptions' "able"), is as likely that slip as a
 * form of the stem the catalog does not write: the stem's words take the typo's code. A typo in
 * the stem itself is no such doubt: "cases" is a case, not vases.
 */
export function doubtStem(index: SearchIndex, stem: string, typed: ReadonlySet<number>, codes: Map<number, number>): void {
  const stemmed = [...codes].filter(([word, code]) => code === 2 && !typed.has(word)).map(([word]) => word);
  if (stemmed.length === 0) return;
  const own = new Set(stemmed);
  const slips = [...codes].filter(([word, code]) => code === 3 && !own.has(word)).map(([word]) => word);
  if (slips.length === 0) return;
  const labels = ~proseFields(index);
  const doubt =
    slips.some((word) => index.dictionary.words[word]!.startsWith(stem)) ||
    labelled(index, slips, labels) >= LIKELIER * Math.max(1, labelled(index, stemmed, labels));
  if (doubt) for (const word of stemmed) codes.set(word, 3);
}

/**
 * A misspelt word (no reading as typed or as a form of it) whose whole slips (code 3) are several:
 * the slips {@link LIKELIER} times fewer items hold beside the other query words (as typed or as a
 * form) than the likeliest one does come a step after it, as the start of a slip would (code 4):
 * "trk 900" is a Trek 900 before a "TR900" racket. With no other query word read as typed, the
 * labels holding each slip count instead ("sit" alone is a suit, not "Sir").
 */
export function rankSlips(index: SearchIndex, terms: AnalyzedQuery['terms'], termWords: number[][], termCodes: number[][]): void {
  const labels = ~proseFields(index);
  for (let t = 0; t < terms.length; t++) {
    const [words, codes] = [termWords[t]!, termCodes[t]!];
    if (terms[t]!.stopWord || codes.some((c) => c <= 2)) continue;
    const slips = codes.flatMap((code, k) => (code === 3 ? [k] : []));
    if (slips.length < 2) continue;
    const others = typedWords(terms, termWords, termCodes, (k) => k === t);
    const beside = marked(index, others);
    // Alone, the labels holding each slip say which the shopper likelier meant ("sit": a suit).
    const counts = slips.map((k) => {
      if (!beside) return others.length === 0 ? labelled(index, [words[k]!], labels) : 0;
      let c = 0;
      for (const d of index.docs(words[k]!)) c += beside[d]!;
      return c;
    });
    const best = Math.max(...counts);
    if (best === 0) continue;
    slips.forEach((k, j) => {
      if (best >= LIKELIER * counts[j]!) codes[k] = 4;
    });
  }
}

/** The words the query's terms (other than stop words and those `skip` names) reach as typed or as a form of them (codes 1 and 2). */
function typedWords(terms: AnalyzedQuery['terms'], termWords: number[][], termCodes: number[][], skip: (k: number) => boolean): number[] {
  return terms.flatMap((term, k) => (skip(k) || term.stopWord ? [] : termWords[k]!.filter((_, j) => termCodes[k]![j]! <= 2)));
}

/**
 * A word being typed that the catalog lacks reaches words by their start (`started`, less those
 * its stem reaches); the items' labels (their fields other than prose) say whether the shopper
 * means them. None in a label ("bely": "belies", in one description): no reading, so the word's
 * typos are read. A whole word one typo away that {@link LIKELIER} times as many labels hold
 * ("weath": 38 items name a wreath, 3 the weather): the starts rank after it, as a typo's start.
 */
export function readStarts(
  index: SearchIndex,
  started: ReadonlySet<number>,
  stemWords: readonly number[],
  codes: Map<number, number>,
): void {
  const stem = new Set(stemWords);
  const starts = [...started].filter((w) => !stem.has(w) && codes.get(w) === 2);
  if (starts.length === 0) return;
  const labels = ~proseFields(index);
  const named = labelled(index, starts, labels);
  if (named === 0) {
    for (const w of starts) codes.delete(w);
    return;
  }
  const whole = [...codes].filter(([, code]) => code === 3).map(([w]) => w);
  if (whole.length > 0 && labelled(index, whole, labels) >= LIKELIER * named) for (const w of starts) codes.set(w, 4);
}

/**
 * How many postings of `words` are in a field of `labels` (bit f for field f), or keep no field
 * masks (over 32 fields), counted up to `most`.
 */
export function labelled(index: SearchIndex, words: readonly number[], labels: number, most = Number.POSITIVE_INFINITY): number {
  const { postingFields, postingStart } = index;
  let count = 0;
  for (const w of words)
    for (let k = postingStart[w]!, end = postingStart[w + 1]!; k < end; k++)
      if ((postingFields[k] === 0 || (postingFields[k]! & labels) !== 0) && ++count >= most) return count;
  return count;
}

/**
 * Whether query word `i`, a fragment the catalog lacks, is likelier a slip than half of a word
 * typed in two with a slip: one typo of its own makes words (no stop word) that more items hold
 * beside the other query words as typed (or their stems) than hold the words it makes joined with
 * its neighbour (term `at` with `at + 1`, with the typos the joined word allows) beside the rest.
 * One slip is likelier than a split and a slip ("apple watch bnd" is a band, not a "watchband"),
 * unless the catalog says otherwise ("bluetooth head est" is a headset), the neighbour is no word
 * either, or the join reaches a word the slip does: then it reads the neighbour too ("plu ss").
 * `joinedPrefix` says whether the joined word is read as a prefix.
 */
export function slipLikelier(
  index: SearchIndex,
  analyzer: Analyzer,
  terms: AnalyzedQuery['terms'],
  i: number,
  at: number,
  joinedPrefix: (joined: string) => boolean,
  work: LookupWork,
): boolean {
  const term = terms[i]!;
  if (!LETTERS.test(term.text)) return false;
  const dict = index.dictionary;
  // A byte per item: the other words' postings may be most of the catalog, too many for a Set.
  const docsBeside = (skip: (k: number) => boolean): Uint8Array | undefined =>
    marked(
      index,
      terms.flatMap((t, k) => (skip(k) || t.stopWord ? [] : index.wordsOf(t.text, t.stem))),
    );
  // The words `text` reaches (no stop word), and the items holding one, among `beside` unless
  // undefined (an empty array: among none). An item a word two typos away reaches counts
  // 1 / LIKELIER: each slip more is that much less likely ("win glasses" is wine glasses, not a
  // "winglasses" two slips from sunglasses). Counted in LIKELIER-ths, whole numbers: a sum of
  // tenths in floating point would settle a tie by its rounding (ten of them 0.999…, twenty 2.000…1).
  const reach = (text: string, typos: number, prefix: boolean, beside: Uint8Array | undefined) => {
    const words = new Set<number>();
    // Per item: 0 not reached, 1 by a word two typos away, LIKELIER by a nearer one (its weight).
    const held = new Uint8Array(index.items.length);
    let items = 0;
    const take = (word: number, t: number) => {
      if (analyzer.stopWords.has(dict.words[word]!)) return;
      words.add(word);
      const weight = t >= 2 ? 1 : LIKELIER;
      const docs = index.docs(word);
      for (let x = 0; x < docs.length; x++) {
        const d = docs[x]!;
        if (held[d]! < weight && (!beside || beside[d] === 1)) {
          items += weight - held[d]!;
          held[d] = weight;
        }
      }
    };
    dict.lookup(text, typos, prefix, MAX_DERIVATIONS, take, work);
    return { words, items };
  };
  // A neighbour the catalog lacks too is the other half: one reading for both ("plu ss").
  const other = terms[at === i ? i + 1 : i - 1]!;
  if (index.wordsOf(other.text, other.stem).length === 0) return false;
  const slip = reach(term.text, 1, false, docsBeside((k) => k === i) ?? new Uint8Array(0));
  if (slip.items === 0) return false;
  const joined = terms[at]!.text + terms[at + 1]!.text;
  const rest = docsBeside((k) => k === at || k === at + 1);
  const join = reach(joined, allowedTypos(joined.length), joinedPrefix(joined), rest);
  // Both reaching a word, the join reads the neighbour too ("plu ss": plus).
  for (const word of slip.words) if (join.words.has(word)) return false;
  return slip.items > join.items;
}

/** The documents holding one of `words`, a byte per item (1: holds one); undefined where none does. */
export function marked(index: SearchIndex, words: Iterable<number>): Uint8Array | undefined {
  const docs = new Uint8Array(index.items.length);
  let any = false;
  for (const w of words) {
    const list = index.docs(w);
    for (let x = 0; x < list.length; x++) docs[list[x]!] = 1;
    any ||= list.length > 0;
  }
  return any ? docs : undefined;
}

/**
 * Whether the catalog reads a query word (`word`, among the query's words `query`): has it, its
 * stem, or a word a typo away ({@link allowedTypos}; no price word or stop word, which name
 * nothing) that an item holds beside another of the query's words. A slip of a price word is
 * read as one only where the catalog reads it no other way (see {@link Analyzer.query}): "chesp
 * strap" is a chest strap where an item is a "Chest Strap", not a cheap strap; "chewp earrings"
 * stays cheap where only a "Chew Bone" has "chew".
 */
export function readsWord(index: SearchIndex, analyzer: Analyzer): (word: string, query: readonly string[]) => boolean {
  const dict = index.dictionary;
  const names = (text: string) => !analyzer.isPriceWord(text) && !analyzer.stopWords.has(text);
  return (word, query) => {
    if (dict.id(word) >= 0 || index.stems.has(analyzer.stem(word))) return true;
    const near: number[] = [];
    // A short word's slips too ("chep" beside "chip"), as it would take one: see unknownWordTypos.
    dict.lookup(word, Math.max(allowedTypos(word.length), Math.min(1, unknownWordTypos(word.length))), false, MAX_DERIVATIONS, (id) => {
      if (names(dict.words[id]!)) near.push(id);
    });
    const holding = marked(index, near);
    if (!holding) return false;
    for (const other of query) {
      if (other === word || !names(other)) continue;
      for (const w of index.wordsOf(other, analyzer.stem(other))) for (const d of index.docs(w)) if (holding[d] === 1) return true;
    }
    return false;
  };
}
