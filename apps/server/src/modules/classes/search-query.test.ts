import { describe, expect, it } from 'vitest';
import { correctableWords, parseSearch, SEARCH_WORDS_MAX, toTsqueryExpression } from './search-query.ts';

const plain = (q: string) => parseSearch(q).map((w) => w.word);
const expression = (q: string, corrections: [string, string[]][] = []) =>
  toTsqueryExpression(parseSearch(q), new Map(corrections));

describe('parseSearch', () => {
  it('keeps letters and digits, lower-cased, each word once', () => {
    expect(plain('  Watercolour   BASICS watercolour ')).toEqual(['watercolour', 'basics']);
    expect(plain('Crème brûlée 3D')).toEqual(['crème', 'brûlée', '3d']);
  });

  it('turns tsquery syntax into separators', () => {
    expect(plain("water & !oil | (paint):* 'x'")).toEqual(['water', 'oil', 'paint', 'x']);
    expect(plain('&|!:*()')).toEqual([]);
  });

  it(`reads at most ${SEARCH_WORDS_MAX} words`, () => {
    expect(parseSearch('a b c d e f g h i j')).toHaveLength(SEARCH_WORDS_MAX);
  });
});

describe('toTsqueryExpression', () => {
  it('matches every word as a prefix', () => {
    expect(expression('Water bas')).toBe('water:* & bas:*');
  });

  it('offers the corrections of a misspelled word beside its prefix', () => {
    expect(expression('watercolur', [['watercolur', ['watercolour', 'watercolours']]])).toBe(
      '(watercolur:* | watercolour | watercolours)',
    );
  });

  it('excludes -words and accepts either side of "or"', () => {
    expect(expression('react -hooks')).toBe('react:* & !hooks:*');
    expect(expression('design pandas or phishing')).toBe('design:* & (pandas:* | phishing:*)');
    expect(expression('or pandas or')).toBe('pandas:*');
  });

  it('searches a quoted phrase as its words', () => {
    expect(expression('"grid and flexbox"')).toBe('grid:* & and:* & flexbox:*');
  });

  it('has nothing to match without words', () => {
    expect(expression('')).toBeNull();
    expect(expression(' -- ')).toBeNull();
  });

  it('corrects only searched words of three letters or more', () => {
    expect(correctableWords(parseSearch('a ab abc -abcd'))).toEqual(['abc']);
  });
});
