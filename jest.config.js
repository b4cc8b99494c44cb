/** Every suite runs TypeScript through ts-jest; server suites start the server in-process on a random port. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
	// n8n-core keeps its instance settings under N8N_USER_FOLDER: give each run a temporary one.
	setupFiles: ['<rootDir>/test/helpers/n8n-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/helpers/n8n-teardown.ts'],
	// The contract's coverage over a whole run (test/helpers/contract-coverage.ts).
	globalSetup: '<rootDir>/test/helpers/global-setup.ts',
	globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
	testTimeout: 20000,
};
