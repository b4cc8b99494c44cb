/**
 * Writes the server's OpenAPI document (the route table's, as `GET /openapi.json` serves it) to a file:
 * `tsx scripts/openapi.ts <file>`. For `npm run lint:openapi` and the typed client's generation.
 */
import fs from 'node:fs';
import { documentOf } from '../server/src/http/openapi';
import { routes } from '../server/src/routes';

const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/openapi.ts <file>');
fs.writeFileSync(out, `${JSON.stringify(documentOf(routes), null, '\t')}\n`);
