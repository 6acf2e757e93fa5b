import { writeFileSync } from 'node:fs';
import { API_TYPES_FILE, renderApiTypes } from './api-types.ts';

/** `npm run api:types -w @skillhive/server`: regenerates test/generated/api.ts. */
writeFileSync(API_TYPES_FILE, await renderApiTypes());
console.log(`wrote ${API_TYPES_FILE}`);
