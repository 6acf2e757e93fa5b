import { FIRST, LAST, TOPICS } from './generate.ts';

/**
 * Catalogue search as people type it (decision 018): random prefixes of the words of
 * the generated titles and teacher names, misspellings of them (a letter dropped, two swapped, one
 * replaced by its keyboard neighbour) and deep pages of such searches. Deterministic (a seeded
 * generator), so two runs send the same requests; distinct enough that the shared catalogue page
 * cache could not answer most of them even when it is on (the scenario turns it off anyway).
 */

/** Mulberry32: a small seeded generator, so the request list is the same in every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NEIGHBOURS: Record<string, string> = {
  a: 's',
  b: 'v',
  c: 'x',
  d: 's',
  e: 'r',
  f: 'd',
  g: 'f',
  h: 'g',
  i: 'u',
  j: 'h',
  k: 'j',
  l: 'k',
  m: 'n',
  n: 'm',
  o: 'i',
  p: 'o',
  q: 'w',
  r: 'e',
  s: 'a',
  t: 'r',
  u: 'y',
  v: 'c',
  w: 'q',
  x: 'z',
  y: 't',
  z: 'x',
};

/** The words a visitor would look for: those of the topics and the teachers' names, 4 letters or more. */
export const SEARCH_VOCABULARY: string[] = [
  ...new Set(
    [...TOPICS, ...FIRST, ...LAST]
      .flatMap((text) => text.toLowerCase().split(/[^a-z]+/))
      .filter((word) => word.length >= 4),
  ),
];

export type SearchKind = 'prefix' | 'misspelling' | 'deep page';

export interface SearchRequest {
  kind: SearchKind;
  q: string;
  page: number;
  path: string;
}

function misspell(word: string, next: () => number): string {
  const i = 1 + Math.floor(next() * (word.length - 2));
  const op = Math.floor(next() * 3);
  if (op === 0) return word.slice(0, i) + word.slice(i + 1);
  if (op === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return word.slice(0, i) + (NEIGHBOURS[word[i]!] ?? 'e') + word.slice(i + 1);
}

/** `count` search requests: 40% prefixes, 40% misspellings, 20% deep pages (2 to 40) of prefixes. */
export function searchRequests(count: number, pageSize: number, seed = 20): SearchRequest[] {
  const next = random(seed);
  const pick = () => SEARCH_VOCABULARY[Math.floor(next() * SEARCH_VOCABULARY.length)]!;
  const out: SearchRequest[] = [];
  for (let n = 0; n < count; n++) {
    const roll = next();
    const word = pick();
    const prefix = word.slice(0, 3 + Math.floor(next() * (word.length - 2)));
    const kind: SearchKind = roll < 0.4 ? 'prefix' : roll < 0.8 ? 'misspelling' : 'deep page';
    const q = kind === 'misspelling' ? misspell(word, next) : prefix;
    const page = kind === 'deep page' ? 2 + Math.floor(next() * 39) : 1;
    const path = `/api/classes?limit=${pageSize}&q=${encodeURIComponent(q)}${page > 1 ? `&page=${page}` : ''}`;
    out.push({ kind, q, page, path });
  }
  return out;
}
