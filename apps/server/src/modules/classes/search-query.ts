/**
 * Turning what a visitor typed into a text-search query (decision 018). Pure, so it is tested
 * without a database; the corrections come from `findCorrections` (catalogue.repository.ts).
 */

/** Words beyond this many are ignored: a longer query only narrows further and costs more. */
export const SEARCH_WORDS_MAX = 8;
/** Shorter words are matched as prefixes only, never corrected (too many near neighbours). */
export const CORRECTABLE_WORD_MIN = 3;
/** Known words tried for one misspelled word. */
export const CORRECTIONS_PER_WORD = 2;
/** A search counts its matches up to this many; past it, the total reads "1,000+" (decision 018). */
export const SEARCH_TOTAL_CAP = 1_000;

/** One word of a query: `-word` excludes it; `a or b` lets either match. */
export interface SearchWord {
  word: string;
  negated: boolean;
  /** Joined to the word before it by `or` instead of "and". */
  orWithPrevious: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a query: runs of letters and digits, lower-cased. Everything else (punctuation,
 * quotes, tsquery operators such as `&`, `|`, `!`, `:`) separates words, so the expression built
 * from them can never be malformed. As in common search boxes, `-word` leaves out what contains it
 * and `or` between two words accepts either; a quoted phrase is searched as its words.
 */
export function parseSearch(q: string): SearchWord[] {
  const words: SearchWord[] = [];
  let pendingOr = false;
  for (const chunk of q.toLowerCase().split(/\s+/)) {
    if (chunk === 'or') {
      pendingOr = words.length > 0;
      continue;
    }
    const negated = chunk.startsWith('-');
    for (const word of chunk.match(WORD) ?? []) {
      if (words.some((w) => w.word === word && w.negated === negated)) continue;
      words.push({ word, negated, orWithPrevious: pendingOr });
      pendingOr = false;
    }
  }
  return words.slice(0, SEARCH_WORDS_MAX);
}

/** The words worth looking up for a correction: searched for (not excluded), long enough. */
export const correctableWords = (words: SearchWord[]) =>
  words.filter((w) => !w.negated && w.word.length >= CORRECTABLE_WORD_MIN).map((w) => w.word);

/**
 * A `to_tsquery` expression: every word must match (or one of an `or` group), each as a prefix
 * (`water:*` finds "watercolour") or as one of its corrections (`watercolur` finds "watercolour");
 * an excluded word must match nowhere, as a prefix.
 */
export function toTsqueryExpression(words: SearchWord[], corrections: ReadonlyMap<string, string[]>): string | null {
  if (words.length === 0) return null;
  const operand = (w: SearchWord) => {
    if (w.negated) return `!${w.word}:*`;
    const alternatives = [`${w.word}:*`, ...(corrections.get(w.word) ?? [])];
    return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' | ')})`;
  };
  const groups: string[][] = [];
  for (const w of words) {
    if (w.orWithPrevious && groups.length > 0) groups.at(-1)!.push(operand(w));
    else groups.push([operand(w)]);
  }
  return groups.map((group) => (group.length === 1 ? group[0] : `(${group.join(' | ')})`)).join(' & ');
}
