import { writeFileSync } from 'node:fs';
import { buildPublishedOpenApiDocument } from './openapi-document.ts';

/**
 * `node apps/server/src/openapi-cli.ts <file>`: writes the published OpenAPI document (JSON) to
 * <file>, or to standard output without one. `npm run lint:openapi` lints what it writes.
 */
const target = process.argv[2];
const json = `${JSON.stringify(await buildPublishedOpenApiDocument(), null, 2)}\n`;
if (target) writeFileSync(target, json);
else process.stdout.write(json);
