import fs from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { AnswerCheck } from '../../server/src/http/route';
import { documentOf } from '../../server/src/http/openapi';
import { routes } from '../../server/src/routes';
import { routeKey } from './contract-coverage';

/**
 * The contract check every test server runs (`startServer` passes it to the server): each answer of a
 * route of the table must have a status its operation in the OpenAPI document lists, and a body that
 * validates against the schema the document gives for that status. An answer that does not becomes a
 * 500 naming why, so the test that asked fails; the suite fails too, in `afterAll`.
 * The answers checked are recorded, for the coverage check of the whole run (`contract-coverage.ts`).
 */

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
const document = documentOf(routes) as unknown as { paths: Record<string, Record<string, Operation>> };

// OpenAPI 3.1's schemas are JSON Schema 2020-12. Formats are zod's to check (a WordPress date has no zone).
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
ajv.addSchema(document, 'openapi');
const validators = new Map<string, ValidateFunction>();

function validatorOf(pathName: string, method: string, status: string, media: string): ValidateFunction {
	const pointer = ['paths', pathName, method, 'responses', status, 'content', media, 'schema'].map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
	let validate = validators.get(pointer);
	if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `openapi#/${pointer}` })));
	return validate;
}

const violations: string[] = [];
const exercised = new Set<string>();

const asText = (payload: unknown) => (typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined);

export const checkAnswer: AnswerCheck = ({ route, request, status, contentType, payload }) => {
	const where = `${route.method} ${route.path}`;
	const query = (request.query ?? {}) as Record<string, unknown>;
	// PHP's form of a parameter counts too (`_fields[]=id`).
	const asked = (name: string) => name in query || `${name}[]` in query;
	// `_envelope` moves the answer, whatever its status, into a 200's body.
	if (asked('_envelope')) return undefined;
	const operation = document.paths[route.path]?.[route.method.toLowerCase()];
	const declared = operation?.responses[status] ?? (status >= 500 ? operation?.responses.default : undefined);
	if (!declared) return violation(`${where} answered ${status}, which it does not declare (it declares ${Object.keys(operation?.responses ?? {}).join(', ')})`);
	// A HEAD has no body, and `_fields` keeps some fields of it.
	if (request.method === 'HEAD' || (status < 300 && asked('_fields'))) return undefined;
	const type = (contentType ?? '').split(';')[0].trim();
	const declaredTypes = Object.keys(declared.content ?? {});
	// The declared type the answer has (a route may answer JSON or another type), else the first declared.
	const media = declaredTypes.find((declaredType) => declaredType === type) ?? declaredTypes[0];
	if (!media) {
		// A 204, or a route that has not declared its answer yet (the coverage check lists those).
		if (status === 204 && asText(payload)) return violation(`${where} answered 204 with a body`);
		return undefined;
	}
	if (media !== 'application/json') {
		if (status < 300) exercised.add(routeKey(route));
		return media === '*/*' || type === media || (media.endsWith('/*') && type.startsWith(media.slice(0, -1))) ? undefined : violation(`${where} answered ${status} as ${type || 'no type'}, not ${media}`);
	}
	const text = asText(payload);
	if (text === undefined) return undefined;
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return violation(`${where} answered ${status} with a body that is not JSON: ${text.slice(0, 80)}`);
	}
	const validate = validatorOf(route.path, route.method.toLowerCase(), String(operation?.responses[status] ? status : 'default'), media);
	if (!validate(body)) {
		const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
		return violation(`${where} answered ${status} with a body its schema refuses: ${errors.join('; ')}`);
	}
	if (status < 300) exercised.add(routeKey(route));
	return undefined;
};

function violation(message: string) {
	violations.push(message);
	return message;
}

afterAll(() => {
	const dir = process.env.WDM_CONTRACT_DIR;
	if (dir && exercised.size) fs.writeFileSync(path.join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`), JSON.stringify([...exercised]));
	exercised.clear();
	const found = violations.splice(0);
	if (found.length) throw new Error(`answers outside the contract (the OpenAPI document):\n${[...new Set(found)].join('\n')}`);
});
