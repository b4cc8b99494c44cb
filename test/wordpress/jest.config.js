/**
 * The WordPress differential suite (`npm run test:wordpress`): a real WordPress and the reference server
 * compared. Its own config, so that the default `npm test` (testMatch `*.test.ts`) does not run it.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/wordpress'],
	testMatch: ['**/*.wp.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
	testTimeout: 600000,
};
