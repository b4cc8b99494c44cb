/**
 * Writes the server's OpenAPI document (the route table's, as `GET /openapi.json` serves it) to a file, and,
 * given a second file, the TypeScript types `openapi-typescript` generates from it (what `openapi-fetch`
 * clients are typed with): `tsx scripts/openapi.ts <document.json> [types.d.ts]`.
 * For `npm run lint:openapi` and `npm run gen:client`; the typed-client test generates its types the same way.
 */
import { writeClientTypes, writeOpenApiDocument } from '../test/clients/typed/generate';

const [document, types] = process.argv.slice(2);
if (!document) throw new Error('usage: tsx scripts/openapi.ts <document.json> [types.d.ts]');
if (types) writeClientTypes(types, document);
else writeOpenApiDocument(document);
