import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@jest/types';
import type { Route } from '../../server/src/http/route';
import { successStatuses } from '../../server/src/http/statuses';
import { routes } from '../../server/src/routes';
import { originalOf } from '../../server/src/site/content/namespace';

/**
 * Jest's global setup and teardown for the contract's coverage: every suite's servers record the routes
 * whose success answer they checked (`contract.ts`); after a run of every suite, each route of the table
 * must have declared its answer and been checked at least once.
 */

/** A route as the coverage counts it: a `wp/v2` twin is its `cms/v2` route. */
export const routeKey = (route: Route) => {
	const original = originalOf(route) ?? route;
	return `${original.method} ${original.path}`;
};

export async function setup() {
	process.env.WDM_CONTRACT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-contract-'));
}

/** A run of every suite: no path, name or changed-files filter. */
const wholeRun = (config: Config.GlobalConfig) =>
	!config.testPathPattern && !config.testNamePattern && !config.onlyChanged && !config.findRelatedTests && !config.shard && !config.lastCommit;

export async function teardown(config: Config.GlobalConfig) {
	const dir = process.env.WDM_CONTRACT_DIR;
	if (!dir) return;
	const exercised = new Set<string>();
	for (const file of fs.readdirSync(dir)) for (const key of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as string[]) exercised.add(key);
	fs.rmSync(dir, { recursive: true, force: true });
	if (!wholeRun(config)) return;
	const table = routes.filter((r) => !originalOf(r));
	// Declared: its answer, or no body to describe (a 204, or no success at all).
	const undeclared = table.filter((r) => !r.answer && !r.produces && !successStatuses(r).every((status) => status === 204));
	const unchecked = table.filter((r) => successStatuses(r).length && !exercised.has(routeKey(r)));
	console.log(`contract: ${table.length - undeclared.length} of ${table.length} routes declare their answer; ${table.length - unchecked.length} had a success answer checked`);
	const problems = [
		...undeclared.map((r) => `${r.method} ${r.path} declares no answer`),
		...unchecked.map((r) => `${r.method} ${r.path}: no test got a success answer from it`),
	];
	if (problems.length) throw new Error(`the contract's coverage is incomplete:\n${problems.join('\n')}`);
}
