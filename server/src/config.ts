import { z } from 'zod';
import { builtInIssues, validationMessage } from './http/errors';

/**
 * Every setting of the server, with its default. Each one can be given as a flag (`--pair-delay-ms 500`)
 * or as an environment variable (`WDM_PAIR_DELAY_MS=500`); flags win.
 */
export const configSchema = z.object({
	port: z.coerce.number().int().min(0).max(65535).default(8080),
	host: z.string().default('127.0.0.1'),
	/**
	 * Connections the kernel holds for the server to accept. A bulk send from n8n opens one per item at
	 * once; past this queue a connection waits for the kernel's handshake retries (seconds). The kernel
	 * caps it at net.core.somaxconn.
	 */
	listenBacklog: z.coerce.number().int().min(1).default(4096),
	/** Data directory, or `:memory:` for a store that lives as long as the process. */
	data: z.string().default('./data'),
	/** `auto`: a pairing completes by itself after `pairDelayMs`; `manual`: only through the sandbox. */
	pairing: z.enum(['auto', 'manual']).default('auto'),
	pairDelayMs: z.coerce.number().int().min(0).default(1000),
	/** How long a QR code stays valid before the next request issues a new one. */
	qrTtlMs: z.coerce.number().int().min(1000).default(60000),
	/** Time the network takes to confirm delivery of an outbound message. */
	receiptDelayMs: z.coerce.number().int().min(0).default(300),
	/** Largest request body accepted, in bytes (Base64 media needs room). */
	bodyLimit: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
	/** Media fetched from a URL: time limit and size limit. */
	mediaTimeoutMs: z.coerce.number().int().min(100).default(15000),
	mediaMaxBytes: z.coerce.number().int().min(1024).default(32 * 1024 * 1024),
	/**
	 * Let media downloads and webhooks reach this machine and private networks (loopback, 10/8, 192.168/16...),
	 * e.g. an n8n on localhost. Off by default: otherwise any API user could make the server fetch internal URLs.
	 * A flag or the environment gives `true`/`false` (or 1/0, yes/no); code may give the boolean itself.
	 */
	allowPrivateFetch: z.preprocess((v) => (typeof v === 'boolean' ? String(v) : v), z.stringbool({ error: 'must be true or false' })).default(false),
	/**
	 * The OpenAI-compatible service the AI proxy (`proxyext/v1`) forwards to: its base URL (e.g.
	 * `https://api.openai.com/v1`), or `builtin`, a deterministic simulated model served in-process.
	 */
	aiUpstreamUrl: z
		.string()
		.refine((v) => v === 'builtin' || /^https?:\/\/[^/]/.test(v), { error: 'must be "builtin" or an http(s) URL' })
		.default('builtin'),
	/** Time limit of one forwarded AI request, streamed answers included. */
	aiTimeoutMs: z.coerce.number().int().min(100).default(120000),
	/** Interval at which presence is re-sent while it lasts. */
	presenceResendMs: z.coerce.number().int().min(10).default(10000),
	/** Webhook delivery: attempts before giving up, backoff base and cap, per-attempt timeout. */
	webhookMaxAttempts: z.coerce.number().int().min(1).default(12),
	webhookBackoffMs: z.coerce.number().int().min(1).default(2000),
	webhookMaxBackoffMs: z.coerce.number().int().min(1).default(15 * 60 * 1000),
	webhookTimeoutMs: z.coerce.number().int().min(100).default(10000),
	/** How long a shutdown waits for requests in flight; then their connections are cut (a client may never finish). */
	shutdownGraceMs: z.coerce.number().int().min(0).default(10000),
	/** API key of the bootstrap `admin` user on an empty store, instead of a random one. */
	adminKey: z.string().min(16).optional(),
	/** Site application password of the bootstrap `admin` user on an empty store, instead of a random one. */
	adminAppPassword: z.string().min(16).optional(),
	/** Address clients use to reach this server (for file URLs); defaults to the listening address. */
	publicUrl: z.string().url().optional(),
	logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const envName = (key: string) => `WDM_${kebab(key).replace(/-/g, '_').toUpperCase()}`;

/** Reads the settings from flags and the environment; throws a message naming the bad setting. */
export function loadConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): Config {
	const input: Record<string, string> = {};
	for (const key of Object.keys(configSchema.shape)) {
		const value = flags[kebab(key)] ?? env[envName(key)];
		if (value !== undefined) input[key] = value;
	}
	const result = configSchema.safeParse(input, builtInIssues);
	if (!result.success) {
		// Same wording as the API's validation messages: `--port (WDM_PORT) must be a number (got string "x")`.
		throw new Error(validationMessage(result.error, input, 'settings', ([key]) => `--${kebab(String(key))} (${envName(String(key))})`));
	}
	return result.data;
}
