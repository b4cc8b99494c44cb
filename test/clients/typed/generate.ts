import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentOf } from '../../../server/src/http/openapi';
import { routes } from '../../../server/src/routes';

/** The server's OpenAPI document (the route table's, as `GET /openapi.json` serves it), written to `file`. */
export function writeOpenApiDocument(file: string) {
	fs.writeFileSync(file, `${JSON.stringify(documentOf(routes), null, '\t')}\n`);
}

/**
 * The client types of the server's OpenAPI document, as `openapi-typescript`'s command makes them (its
 * module is ESM-only, which Jest's CommonJS cannot load), written to `file` beside `document` (the
 * document's JSON, written to a temporary file when not given).
 */
export function writeClientTypes(file: string, document = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-openapi-')), 'openapi.json')) {
	writeOpenApiDocument(document);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	execFileSync(path.join(__dirname, '../../../node_modules/.bin/openapi-typescript'), [document, '-o', file], { stdio: 'pipe' });
}
