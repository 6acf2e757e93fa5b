import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `node scripts/server-lines.ts [rev ...]`: the lines of server source, the size a change of the
 * server's structure must not grow (docs/ARCHITECTURE.md): every `.ts` file under apps/server/src
 * but tests (`*.test.ts`) and generated files (a `generated/` folder), counted as `wc -l` counts.
 * Without a rev it counts the working tree (tracked and new files); with revs, each commit as
 * stored, and the difference from the first.
 */
const ROOT = 'apps/server/src/';
const isServerSource = (file: string) =>
  file.startsWith(ROOT) && file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.includes('/generated/');
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const lineCount = (text: string) => text.split('\n').length - 1;

function count(rev: string | null): number {
  const files = (
    rev
      ? git('ls-tree', '-r', '--name-only', rev, ROOT)
      : git('ls-files', '--cached', '--others', '--exclude-standard', ROOT)
  )
    .split('\n')
    .filter(isServerSource);
  let total = 0;
  for (const file of files) {
    const text = rev ? git('show', `${rev}:${file}`) : readFileSync(file, 'utf8');
    total += lineCount(text);
  }
  return total;
}

const revs = process.argv.slice(2);
if (revs.length === 0) console.log(`working tree: ${count(null)} lines of server source`);
let first: number | null = null;
for (const rev of revs) {
  const lines = count(rev);
  first ??= lines;
  const change = lines - first;
  console.log(
    `${rev}: ${lines} lines of server source${rev === revs[0] ? '' : ` (${change >= 0 ? '+' : ''}${change})`}`,
  );
}
