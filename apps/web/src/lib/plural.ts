/** "1 class", "2 classes", "0 classes": English plurals with Intl's rules. */
const rules = new Intl.PluralRules('en');

export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${rules.select(count) === 'one' ? singular : plural}`;
}
