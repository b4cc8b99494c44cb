import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConnectionLimits, Probes } from '../http/connections';
import type { Services } from '../services';
import type { DeviceStatus } from '../store/types';
import { qualityAt } from '../network/rules';

const DEVICE_STATUSES: DeviceStatus[] = ['disconnected', 'connecting', 'connected'];
const OUTBOX_STATES = ['pending', 'delivered', 'failed'];

/** Requests that matched no route share one label value: a label per unknown URL would grow without bound. */
const UNMATCHED = 'unmatched';

/**
 * `/healthz`, `/readyz` and the Prometheus `/metrics` of one server. Every number about the server's
 * work is read from the store when scraped (queued sends, the webhook outbox, devices): the store is
 * the truth, and counts stay right across restarts and other processes (`wdm-server users`).
 * Each server has its own registry, so several servers in one process (the tests) do not mix.
 */
export function serveObservability(app: FastifyInstance, services: Services, connections: ConnectionLimits) {
	const registry = new Registry();
	collectDefaultMetrics({ register: registry });
	// Prometheus names only counters `_total` (`promtool check metrics` refuses these gauges); each is the
	// sum of its per-type gauge (`nodejs_active_handles{type}`...), which stays.
	for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
	const db = services.store.db;
	// Collectors for the gauges below, their statements prepared once rather than at every scrape.
	const count = (sql: string) => {
		const statement = db.prepare(sql);
		return function (this: Gauge) {
			this.set((statement.get() as { n: number }).n);
		};
	};
	/** `SELECT <value> AS key, count(*) AS n ... GROUP BY key`: one value per label value, 0 for those with no rows. */
	const countsBy = (label: string, values: string[], sql: string) => {
		const statement = db.prepare(sql);
		return function (this: Gauge) {
			const rows = statement.all() as { key: string; n: number }[];
			for (const value of values) this.set({ [label]: value }, rows.find((r) => r.key === value)?.n ?? 0);
		};
	};

	const duration = new Histogram({
		name: 'wdm_http_request_duration_seconds',
		help: 'Time to answer an HTTP request, per route (as registered) and status',
		labelNames: ['method', 'route', 'status_code'],
		buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
		registers: [registry],
	});
	app.addHook('onResponse', (request, reply, done) => {
		const route = request.routeOptions.url ?? UNMATCHED;
		duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
		done();
	});

	new Gauge({
		name: 'wdm_send_queue_depth',
		help: 'Messages queued for sending (async or scheduled sends not yet handed to the network)',
		registers: [registry],
		collect: count("SELECT count(*) AS n FROM messages WHERE status = 'queued'"),
	});
	new Gauge({
		name: 'wdm_send_replays',
		help: 'Sends answered with the message an earlier send with the same Idempotency-Key made (keys of the last day)',
		registers: [registry],
		collect() {
			this.set(services.store.sendKeys.replays());
		},
	});
	new Gauge({
		name: 'wdm_webhook_outbox_backlog',
		help: 'Webhook events waiting for delivery (first attempt or a retry)',
		registers: [registry],
		collect: count("SELECT count(*) AS n FROM outbox WHERE state = 'pending'"),
	});
	new Gauge({
		name: 'wdm_webhook_events',
		help: 'Webhook events in the outbox by delivery result: pending, delivered (a 2xx), failed (given up)',
		labelNames: ['state'],
		registers: [registry],
		collect: countsBy('state', OUTBOX_STATES, 'SELECT state AS key, count(*) AS n FROM outbox GROUP BY state'),
	});
	new Gauge({
		name: 'wdm_webhook_attempts',
		help: 'Webhook delivery attempts made for the events in the outbox',
		registers: [registry],
		collect: count('SELECT coalesce(sum(attempts), 0) AS n FROM outbox'),
	});
	new Gauge({
		name: 'wdm_webhook_expired_dropped',
		help: 'Webhook deliveries dropped because their subscription expired (retries waiting at expiresAt)',
		registers: [registry],
		collect() {
			this.set(services.store.webhooks.expiredDrops());
		},
	});
	new Gauge({
		name: 'wdm_devices',
		help: 'Devices by connection status',
		labelNames: ['status'],
		registers: [registry],
		collect: countsBy('status', DEVICE_STATUSES, 'SELECT status AS key, count(*) AS n FROM devices GROUP BY status'),
	});

	new Counter({
		name: 'wdm_connections_refused_total',
		help: "Connections closed unanswered past a connection cap: one client address's (per_address) or the server's (global)",
		labelNames: ['reason'],
		registers: [registry],
		collect() {
			this.reset();
			for (const [reason, n] of Object.entries(connections.refused)) this.inc({ reason }, n);
		},
	});

	// The sandbox network's rules: refusals since the start, and each device's quality, restriction and opt-outs, read from the store.
	new Counter({
		name: 'wdm_network_refusals_total',
		help: 'Sends the sandbox network refused, by rule: rate, tier, restricted, opted_out, not_on_network, disconnected (a queued message held back by a rate or a lost connection counts each time)',
		labelNames: ['reason'],
		registers: [registry],
		collect() {
			this.reset();
			for (const [reason, n] of Object.entries(services.rules.refusals)) this.inc({ reason }, n);
		},
	});
	const networkOfDevices = db.prepare(
		`SELECT u.name AS user, d.name AS device, d.is_business, n.score, n.score_at, n.restricted_until, n.blocks, n.reports,
			(SELECT count(*) FROM opt_outs o WHERE o.device_id = d.id) AS opt_outs
		 FROM devices d JOIN users u ON u.id = d.user_id LEFT JOIN network_devices n ON n.device_id = d.id`,
	);
	type NetworkOfDevice = { user: string; device: string; is_business: number; score: number | null; score_at: number; restricted_until: number | null; blocks: number; reports: number; opt_outs: number };
	/** One gauge per device (labels `user`, `device`, and its `account` kind when asked), read from each device's row at scrape time. */
	const perDevice = (name: string, help: string, value: (row: NetworkOfDevice, now: number) => number, withAccount = false) =>
		new Gauge({
			name,
			help,
			labelNames: withAccount ? ['user', 'device', 'account'] : ['user', 'device'],
			registers: [registry],
			collect() {
				this.reset();
				const now = Date.now();
				for (const row of networkOfDevices.all() as NetworkOfDevice[]) {
					const labels = { user: row.user, device: row.device };
					this.set(withAccount ? { ...labels, account: row.is_business ? 'business' : 'ordinary' } : labels, value(row, now));
				}
			},
		});
	const quality = (row: NetworkOfDevice, now: number) => (row.score === null ? { score: 100, restricted_until: null } : qualityAt({ ...row, score: row.score }, now));
	perDevice('wdm_network_quality_score', "A device's quality score on the sandbox network (0 to 100; below 30 it is restricted), with its account kind", (row, now) => Math.round(quality(row, now).score), true);
	perDevice('wdm_network_restricted', 'Whether a device is restricted on the sandbox network (1: it may only answer contacts who wrote to it in the last 24 hours)', (row, now) => (quality(row, now).restricted_until === null ? 0 : 1));
	perDevice('wdm_network_opt_outs', "Contacts who opted out of a device's messages", (row) => row.opt_outs);

	app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));

	for (const [path, answer] of healthProbes(services)) {
		app.get(path, async (_request, reply) => {
			const { status, body } = answer();
			return reply.code(status).send(body);
		});
	}
}

/** `/healthz` and `/readyz`: routes, and answered past the connection caps too (`http/connections.ts`). */
export function healthProbes(services: Services): Probes {
	return new Map([
		// The process answers: nothing else is checked (a liveness probe that restarts on a busy store would make it worse).
		['/healthz', () => ({ status: 200, body: { status: 'ok' } })],
		[
			'/readyz',
			() => {
				const checks = { store: storeWritable(services), sendQueue: services.sendQueue.worker.active, webhookDelivery: services.delivery.worker.active };
				const ready = Object.values(checks).every(Boolean);
				// Not a check: what the server may reach, so that a refused webhook or media URL can be explained.
				return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', checks, privateFetch: services.privateFetch } };
			},
		],
	]);
}

/** A real write in a transaction: a read-only, full or locked store fails it (after the busy timeout). */
function storeWritable(services: Services): boolean {
	try {
		services.store.tx(() => services.store.meta.set('ready_checked_at', new Date().toISOString()));
		return true;
	} catch (error) {
		services.log.warn({ err: error }, 'readiness: the store refused a write');
		return false;
	}
}
