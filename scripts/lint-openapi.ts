import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * npm run lint:openapi: writes the document the API publishes to a temporary file and lints it
 * with Redocly's recommended rules (redocly.yaml). Any error fails; the warnings that remain are
 * listed with their reason in redocly.yaml (decision 012).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'skillhive-openapi-lint-'));
const file = path.join(dir, 'openapi.json');
const run = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
let status = run(process.execPath, ['apps/server/src/openapi-cli.ts', file]);
if (status === 0) status = run('npx', ['--no-install', 'redocly', 'lint', '--config', 'redocly.yaml', file]);
rmSync(dir, { recursive: true, force: true });
process.exitCode = status;
