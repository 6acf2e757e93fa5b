import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * npm run build -w @skillhive/server (run by `npm install` and `npm run build`): bundles the server
 * into dist/server.js, which `npm start` runs. Loading ~2 000 module files one by one cost 1.5–2 s
 * of every start — mostly Node re-reading drizzle-orm's 180 KB package.json for each of its files —
 * while the bundle loads in ≈ 0.5 s (docs/decisions/007-server-bundle.md). `npm run dev` and the
 * tests run the sources.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const outdir = fileURLToPath(new URL('./dist', import.meta.url));

/**
 * Packages that read files of their own at run time (native code, WebAssembly, static assets), so
 * they stay in node_modules and are imported from there.
 */
const EXTERNAL = [
  'sharp', // native libvips binding
  '@electric-sql/pglite', // PostgreSQL compiled to WebAssembly, with its data files
  '@fastify/swagger-ui', // serves the UI's files from its own directory
  'pg-native', // optional in pg, not installed
  // The PostgreSQL driver: a few small files, and one shared copy the bench's SQL capture
  // (bench/capture-sql.ts, preloaded with --import) can hook, as it hooks PGlite.
  'pg',
];

const startedAt = performance.now();
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { server: 'src/server.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  // Bundled CommonJS dependencies call require() for Node's modules and a few read __dirname (ioredis
  // to trim stack traces, @fastify/swagger for its version, inside try/catch): an ES module has none.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
});
// The migrator reads its SQL files beside the module that holds MIGRATIONS_DIR (src/db/client.ts in
// the sources, dist/server.js here).
cpSync(fileURLToPath(new URL('./src/db/migrations', import.meta.url)), `${outdir}/migrations`, { recursive: true });

const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
const ms = Math.round(performance.now() - startedAt);
console.log(`server bundle: dist/server.js (${(bytes / 1024 / 1024).toFixed(1)} MiB with its map) in ${ms} ms`);
