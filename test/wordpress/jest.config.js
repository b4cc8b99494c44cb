/**
 * The suites on a real WordPress (`npm run test:wordpress`): the differential suite (WordPress and the
 * reference server compared) and the site nodes in a real n8n (site-nodes.wp.ts). Its own config, so
 * that the default `npm test` (testMatch `*.test.ts`) does not run them.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/wordpress'],
	testMatch: ['**/*.wp.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
	testTimeout: 600000,
};
