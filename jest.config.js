/** Every suite runs TypeScript through ts-jest; server suites start the server in-process on a random port. */
const suites = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
	// n8n-core keeps its instance settings under N8N_USER_FOLDER: give each run a temporary one.
	setupFiles: ['<rootDir>/test/helpers/n8n-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/helpers/n8n-teardown.ts'],
};

/**
 * The floor: the oldest n8n the package supports (docs/usage.md) ships n8n-workflow 1.83.0 and n8n-core
 * 1.84.0, installed beside today's as `n8n-workflow-floor` and `n8n-core-floor` (root devDependencies).
 * The floor project runs test/floor/*.floor.ts and the node suites below (every engine path: declarative
 * routing, custom operations, pickers, resource locators, credential tests, webhooks) with those instead,
 * so a change that needs a newer n8n fails `npm test`.
 */
const FLOOR_SUITES = [
	'credentials', 'device', 'message', 'trigger', 'send-and-wait', 'label', 'proxy', 'group', 'community', 'chat', 'contact',
	'pickers-gateway', 'pickers-site', 'site-core', 'media', 'post', 'page', 'comment', 'user', 'dynamic-content-queries',
	'theme-core', 'page-builder-editor-components', 'builder-connect', 'ai-proxy',
];
const FLOOR = '<rootDir>/node_modules/n8n-core-floor';
const floor = {
	...suites,
	displayName: 'floor',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/floor/*.floor.ts', ...FLOOR_SUITES.map((name) => `<rootDir>/test/nodes/${name}.test.ts`)],
	moduleNameMapper: {
		'^n8n-workflow(/.*)?$': '<rootDir>/node_modules/n8n-workflow-floor$1',
		'^n8n-core(/.*)?$': `${FLOOR}$1`,
		'^@n8n/di$': `${FLOOR}/node_modules/@n8n/di`,
	},
};

module.exports = {
	testTimeout: 20000,
	// Suites run one at a time in a worker process (2 cores: one worker), recycled once it holds more than
	// this: in band, the one process kept every suite's modules (each server's OpenAPI document and its
	// compiled validators) and ran out of heap after about 140 suites.
	workerIdleMemoryLimit: '1536MB',
	// The contract's coverage over a whole run (test/helpers/contract-coverage.ts).
	globalSetup: '<rootDir>/test/helpers/global-setup.ts',
	globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
	projects: [
		{
			...suites,
			displayName: 'package',
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.ts'],
		},
		floor,
	],
};
