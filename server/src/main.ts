#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { configSchema, kebab, loadConfig, type Config } from './config';
import { startApp } from './app';
import { Store } from './store';

const USAGE = `wdm-server: reference server for the WDM gateway and its host site

Usage:
  wdm-server [options]                start the server
  wdm-server users create NAME        create a user and print its API key (works while a server runs)

Options (each also as an environment variable, e.g. --pair-delay-ms is WDM_PAIR_DELAY_MS):
${Object.keys(configSchema.shape)
	.map((k) => `  --${kebab(k)}`)
	.join('\n')}
`;

function printAccess(url: string, apiKey?: string) {
	const lines = [
		`WDM reference server listening on ${url}`,
		`  gateway base URL: ${url}/wp-json/wdm/v1  (or ${url}/index.php?rest_route=/wdm/v1)`,
		`  site URL:         ${url}`,
	];
	if (apiKey) lines.push('', 'First start: created user "admin". Its API key is shown only now:', `  ${apiKey}`);
	console.log(lines.join('\n'));
}

async function serve(config: Config) {
	const server = await startApp(config);
	printAccess(server.url, server.adminKey);
	let closing = false;
	const shutdown = async (signal: string) => {
		if (closing) return;
		closing = true;
		server.app.log.info(`${signal}: finishing in-flight work`);
		await server.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown('SIGINT'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

function createUser(name: string | undefined, config: Config) {
	if (!name || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new Error('users create NAME: NAME must be 1 to 64 letters, digits, ".", "-" or "_"');
	const store = Store.open(config.data);
	try {
		if (store.users.byName(name)) throw new Error(`user "${name}" already exists`);
		const { apiKey } = store.users.create(name);
		console.log(`Created user "${name}". Its API key is shown only now:\n  ${apiKey}`);
	} finally {
		store.close();
	}
}

async function main(argv: string[]) {
	const options = Object.fromEntries(Object.keys(configSchema.shape).map((k) => [kebab(k), { type: 'string' as const }]));
	const { values, positionals } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
	if (values.help) return console.log(USAGE);
	const config = loadConfig(values as Record<string, string>, process.env);
	if (positionals[0] === 'users' && positionals[1] === 'create') return createUser(positionals[2], config);
	if (positionals.length) throw new Error(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
	await serve(config);
}

main(process.argv.slice(2)).catch((error: Error) => {
	console.error(`wdm-server: ${error.message}`);
	process.exit(1);
});
