import fs from 'node:fs';
import { z } from 'zod';
import { builtInIssues, validationMessage } from './http/errors';

/** A comma list of keywords (`STOP,UNSUBSCRIBE`); empty for none. */
const keywordList = z.string().refine((v) => v.trim() === '' || v.split(',').every((k) => k.trim() !== ''), { error: 'must be a comma list of words, e.g. STOP,UNSUBSCRIBE' });

/**
 * Every setting of the server, with its default. Each one can be given as a flag (`--pair-delay-ms 500`)
 * or as an environment variable (`WDM_PAIR_DELAY_MS=500`); flags win.
 */
export const configSchema = z.object({
	port: z.coerce.number().int().min(0).max(65535).default(8080).describe('TCP port to listen on (0: any free port)'),
	host: z.string().default('127.0.0.1').describe('address to listen on (0.0.0.0: every interface)'),
	/**
	 * Connections the kernel holds for the server to accept. A bulk send from n8n opens one per item at
	 * once; past this queue a connection waits for the kernel's handshake retries (seconds). The kernel
	 * caps it at net.core.somaxconn.
	 */
	listenBacklog: z.coerce.number().int().min(1).default(4096).describe('connections the kernel queues for the server to accept (bursts from bulk sends)'),
	/** Data directory, or `:memory:` for a store that lives as long as the process. */
	data: z.string().default('./data').describe('data directory (the store and token.key), or :memory: for a store that lives as long as the process'),
	/** `auto`: a pairing completes by itself after `pairDelayMs`; `manual`: only through the sandbox. */
	pairing: z.enum(['auto', 'manual']).default('auto').describe('auto: a pairing completes by itself after --pair-delay-ms; manual: only through the sandbox'),
	pairDelayMs: z.coerce.number().int().min(0).default(1000).describe('time the simulated phone takes to scan a QR code (auto pairing)'),
	/** How long a QR code stays valid before the next request issues a new one. */
	qrTtlMs: z.coerce.number().int().min(1000).default(60000).describe('how long a QR code stays valid before a new one is issued'),
	/** Time the network takes to confirm delivery of an outbound message. */
	receiptDelayMs: z.coerce.number().int().min(0).default(300).describe('time the network takes to confirm delivery of an outbound message'),
	/**
	 * Request bodies, by caller and route (`http/limits.ts`): the largest one is taken only on the routes
	 * that take media (Base64 media sends, uploads), from a caller who signed in; it caps the other two.
	 */
	bodyLimit: z.coerce.number().int().min(1024).default(64 * 1024 * 1024).describe('largest request body accepted, in bytes: the routes that take media (uploads, Base64 media sends), signed in; it caps the two limits below'),
	jsonBodyLimit: z.coerce.number().int().min(1024).default(16 * 1024 * 1024).describe('largest request body of a signed-in caller on the routes that take no media, in bytes'),
	anonymousBodyLimit: z.coerce.number().int().min(1024).default(1024 * 1024).describe("largest request body of a caller without credentials (the site's public routes), in bytes"),
	/** PHP's input limits, with PHP's defaults (`http/input-limits.ts`): past them a request is a 400 naming the limit. */
	maxInputVars: z.coerce.number().int().min(1).default(1000).describe("fields a query string or a form body may have, each (PHP's max_input_vars)"),
	maxInputNestingLevel: z.coerce.number().int().min(1).default(64).describe("levels a field name of a query string or a form may nest, a[b][c] being two (PHP's max_input_nesting_level)"),
	maxFileUploads: z.coerce.number().int().min(1).default(20).describe("files a multipart/form-data body may carry (PHP's max_file_uploads)"),
	/**
	 * Connections (`http/limits.ts`): slow or idle clients are cut in seconds, and past the cap a new
	 * connection is closed at once, so that descriptors never run out (the cap stays below the process's
	 * descriptor limit, whatever it is set to).
	 */
	maxConnections: z.coerce.number().int().min(1).default(16384).describe("open connections at most; past it a new connection is closed unanswered, but for a /healthz or /readyz probe (n8n opens one per item of a bulk send; kept below the process's descriptor limit)"),
	/** Unset: three quarters of the cap in force, room for one n8n's bulk send that still leaves a quarter to everyone else (`http/connections.ts`). */
	maxConnectionsPerAddress: z.coerce.number().int().min(1).optional().describe('open connections one client address may have; past it a new one from that address is closed at once (unset: three quarters of --max-connections, so that a bulk send from one n8n fits and one client cannot take them all; /healthz and /readyz are answered past either cap)'),
	headersTimeoutMs: z.coerce.number().int().min(100).default(10000).describe('time a client has to send the request line and headers (slowloris)'),
	requestTimeoutMs: z.coerce.number().int().min(100).default(120000).describe('time a client has to send a whole request, body included'),
	keepAliveTimeoutMs: z.coerce.number().int().min(100).default(72000).describe('how long an idle keep-alive connection is kept for its next request'),
	/** Media fetched from a URL: time limit and size limit. */
	mediaTimeoutMs: z.coerce.number().int().min(100).default(15000).describe('time limit to fetch media given as a URL'),
	mediaMaxBytes: z.coerce.number().int().min(1024).default(32 * 1024 * 1024).describe('size limit of media fetched from a URL, in bytes'),
	/**
	 * Let media downloads, webhooks and the AI upstream reach this machine and private networks (loopback,
	 * 10/8, 192.168/16...). Unset, it follows `host`: allowed when the server listens on loopback only,
	 * refused otherwise (`outbound/policy.ts`, `privateFetchPolicy`). A flag or the environment gives
	 * `true`/`false` (or 1/0, yes/no); code may give the boolean itself.
	 */
	allowPrivateFetch: z
		.preprocess((v) => (typeof v === 'boolean' ? String(v) : v), z.stringbool({ error: 'must be true or false' }))
		.optional()
		.describe('let media downloads, webhooks and the AI proxy reach this machine and private networks (a switch; unset: allowed when --host is loopback, refused otherwise)'),
	/**
	 * The OpenAI-compatible service the AI proxy (`proxyext/v1`) forwards to: its base URL (e.g.
	 * `https://api.openai.com/v1`), or `builtin`, a deterministic simulated model served in-process.
	 */
	aiUpstreamUrl: z
		.string()
		.refine((v) => v === 'builtin' || /^https?:\/\/[^/]/.test(v), { error: 'must be "builtin" or an http(s) URL' })
		.default('builtin')
		.describe('base URL of the OpenAI-compatible service the AI proxy forwards to, or builtin (a simulated model, in-process)'),
	/** Time limit of one forwarded AI request, streamed answers included. */
	aiTimeoutMs: z.coerce.number().int().min(100).default(120000).describe('time limit of one request forwarded by the AI proxy, streamed answers included'),
	/**
	 * The sandbox network's rules (`network/rules.ts`, docs/decisions/sandbox.md, "The sandbox
	 * network's rules"): the defaults of every device, which the sandbox overrides per device. Unset
	 * limits take the account kind's values (`ACCOUNT_DEFAULTS` there).
	 */
	networkRules: z.enum(['on', 'off']).default('on').describe("on: the sandbox network applies a real network's rules (limits, rates, recipients who block or report, quality, opt-outs); off: an ideal network, every rule off"),
	networkAccount: z.enum(['business', 'ordinary']).default('business').describe('account kind of a device that has not chosen one: business (high limits) or ordinary (low limits, occasional disconnections)'),
	networkTier: z.coerce.string().pipe(z.enum(['250', '1000', '10000', '100000', 'unlimited'])).optional().describe('unique recipients a device may start conversations with per rolling 24 hours, as the WhatsApp Business Platform tiers (unset: business 100000, ordinary 250)'),
	networkPerSecond: z.coerce.number().int().min(0).optional().describe('messages a device may send per second, 0 for no limit (unset: business 0, ordinary 1)'),
	networkPerMinute: z.coerce.number().int().min(0).optional().describe('messages a device may send per minute, 0 for no limit (unset: business 0, ordinary 20)'),
	networkNotOnNetworkRate: z.coerce.number().min(0).max(1).default(0).describe('share of simulated contacts that are not on the network (drawn with --network-seed)'),
	networkBlockRate: z.coerce.number().min(0).max(1).default(0).describe("share of simulated contacts who block a device after its first message (its later messages are never delivered; the device's quality falls)"),
	networkReportRate: z.coerce.number().min(0).max(1).default(0).describe("share of simulated contacts who report and block a device after its first message (the device's quality falls more)"),
	networkDisconnectRate: z.coerce.number().min(0).max(1).optional().describe('chance per send that a device loses its connection to the network for --network-reconnect-ms (unset: business 0, ordinary 0.002)'),
	networkReconnectMs: z.coerce.number().int().min(0).default(5000).describe('how long a device that lost its connection to the network takes to come back'),
	networkRestrictionMs: z.coerce.number().int().min(0).default(24 * 60 * 60 * 1000).describe('how long a device whose quality fell below 30 may not start conversations'),
	networkSeed: z.coerce.number().int().default(0).describe('seed of every random draw of the network rules (same seed, same contacts blocking, reporting, absent)'),
	optOutKeywords: keywordList.default('STOP,UNSUBSCRIBE').describe('comma list of the texts by which a contact opts out of a device\'s messages (a whole message, any case); "" for none'),
	optInKeywords: keywordList.default('START').describe('comma list of the texts by which a contact who opted out opts in again; "" for none'),
	/** Interval at which presence is re-sent while it lasts. */
	presenceResendMs: z.coerce.number().int().min(10).default(10000).describe('interval at which presence is re-sent while it lasts'),
	/** Webhook delivery: attempts before giving up, backoff base and cap, per-attempt timeout. */
	webhookMaxAttempts: z.coerce.number().int().min(1).default(12).describe('webhook delivery attempts before an event is given up'),
	webhookBackoffMs: z.coerce.number().int().min(1).default(2000).describe('first wait between webhook attempts (doubles each time, with jitter)'),
	webhookMaxBackoffMs: z.coerce.number().int().min(1).default(15 * 60 * 1000).describe('longest wait between webhook attempts'),
	webhookTimeoutMs: z.coerce.number().int().min(100).default(30000).describe('time limit of one webhook attempt (an n8n under load may take seconds to start a run)'),
	webhookBacklogMax: z.coerce.number().int().min(0).default(5000).describe('webhook events due and not yet sent past which the sandbox refuses inbound messages for devices with webhooks (429 with Retry-After); 0: no bound'),
	/**
	 * Server-sent-event streams (`GET /sandbox/v1/events`): open at once per user and in all (each holds a
	 * connection and a descriptor), and how many bytes a stream may have waiting for a client that does not
	 * read before it is closed (the server's memory stays bounded).
	 */
	eventStreamsPerUser: z.coerce.number().int().min(1).default(16).describe('event streams (GET /sandbox/v1/events) one user may have open at once'),
	eventStreamsMax: z.coerce.number().int().min(1).default(256).describe('event streams open at once on the server, all users together'),
	eventStreamBufferBytes: z.coerce.number().int().min(1024).default(256 * 1024).describe('bytes an event stream may have waiting for a client that does not read; past it the stream is closed'),
	/**
	 * Largest answer of `POST /batch/v1` (the sum of its requests' answers): a request whose answer would
	 * take the batch past it still runs, and its answer keeps its status and headers with an error body.
	 */
	batchAnswerMaxBytes: z.coerce.number().int().min(1024).default(16 * 1024 * 1024).describe('largest answer of POST /batch/v1, and of one POST to /engine/v1/mcp, in bytes: past it, a request still runs but its answer body is an error saying so (MCP: the tool calls after it are not run)'),
	/** JSON-RPC messages in one POST to `/engine/v1/mcp`: each may run a tool, so a batch multiplies the work of one request. */
	mcpBatchMax: z.coerce.number().int().min(1).max(100).default(50).describe('JSON-RPC messages one POST to /engine/v1/mcp may carry (a batch), 100 at most; past it the POST is refused'),
	/** How long a shutdown waits for requests in flight; then their connections are cut (a client may never finish). */
	shutdownGraceMs: z.coerce.number().int().min(0).default(10000).describe('how long SIGINT/SIGTERM wait for requests in flight before cutting their connections'),
	/** API key of the bootstrap `admin` user on an empty store, instead of a random one. */
	adminKey: z.string().min(16).optional().describe('API key of the bootstrap admin user on an empty store, instead of a random one (at least 16 characters)'),
	/** Site application password of the bootstrap `admin` user on an empty store, instead of a random one. */
	adminAppPassword: z.string().min(16).optional().describe('site application password of the bootstrap admin user on an empty store, instead of a random one (at least 16 characters)'),
	/** Address clients use to reach this server (for file URLs); defaults to the listening address. */
	publicUrl: z.string().url().optional().describe('address clients use to reach this server (file URLs point there); default: the listening address'),
	logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info').describe('log level'),
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const envName = (key: string) => `WDM_${kebab(key).replace(/-/g, '_').toUpperCase()}`;

/** One line per setting for `--help`: the flag, its meaning, its default and its environment variable. */
export function settingsHelp(): string {
	const defaults = configSchema.parse({}) as Record<string, unknown>;
	return Object.entries(configSchema.shape)
		.map(([key, schema]) => {
			const fallback = defaults[key] === undefined ? '' : `default ${String(defaults[key])}; `;
			return `  --${kebab(key)}\n      ${schema.description} (${fallback}${envName(key)})`;
		})
		.join('\n');
}

/**
 * Reads the settings from flags, the environment and a config file (`--config wdm.json`: an object
 * with the flags' names as keys, e.g. `{"port": 8081, "pair-delay-ms": 500}`), in that order of
 * precedence; throws a message naming the bad setting and where it came from.
 */
export function loadConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv, file?: ConfigFile): Config {
	const input: Record<string, unknown> = {};
	const fromFile = new Set<string>();
	for (const key of Object.keys(configSchema.shape)) {
		const value = flags[kebab(key)] ?? env[envName(key)];
		if (value !== undefined) input[key] = value;
		else if (file && kebab(key) in file.settings) {
			input[key] = file.settings[kebab(key)];
			fromFile.add(key);
		}
	}
	const result = configSchema.safeParse(input, builtInIssues);
	if (!result.success) {
		// Same wording as the API's validation messages: `--port (WDM_PORT) must be a number (got string "x")`.
		const label = (key: string) => (fromFile.has(key) ? `"${kebab(key)}" in ${file!.path}` : `--${kebab(key)} (${envName(key)})`);
		throw new Error(validationMessage(result.error, input, 'settings', ([key]) => label(String(key))));
	}
	return result.data;
}

export interface ConfigFile {
	path: string;
	settings: Record<string, unknown>;
}

/** Reads a config file: a JSON object whose keys are the flags' names; anything else is refused, naming the file. */
export function readConfigFile(path: string): ConfigFile {
	let settings: unknown;
	try {
		settings = JSON.parse(fs.readFileSync(path, 'utf8'));
	} catch (error) {
		throw new Error(`--config ${path}: ${(error as Error).message}`);
	}
	if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
		throw new Error(`--config ${path}: must be a JSON object whose keys are the settings' flag names, e.g. {"port": 8081}`);
	}
	const known = new Set(Object.keys(configSchema.shape).map(kebab));
	const unknown = Object.keys(settings).filter((key) => !known.has(key));
	if (unknown.length) throw new Error(`--config ${path}: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (the keys are the flags' names, see --help)`);
	return { path, settings: settings as Record<string, unknown> };
}
