import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { conflict, notFound } from '../http/errors';
import { qInt } from '../http/schema';
import type { Services } from '../services';
import { isExpired } from '../webhooks/events';
import type { DeviceRow, OutboxRow, UserRow } from '../store/types';

const deliveryAnswer = z.object({
	id: z.number(),
	webhookId: z.string(),
	eventId: z.string(),
	event: z.string(),
	state: z.enum(['pending', 'delivered', 'failed']),
	attempts: z.number(),
	lastStatus: z.number().nullable().meta({ description: "The receiver's last HTTP status" }),
	lastError: z.string().nullable(),
	nextAttemptAt: z.number().nullable(),
	createdAt: z.number(),
	payload: z.object({ id: z.string(), event: z.string(), device: z.string(), timestamp: z.number(), data: z.unknown() }).meta({ description: 'The webhook body' }),
});

/** A delivery as the log shows it: the event, its state, how often it was tried, what the receiver last said. */
export function deliveryView(row: OutboxRow): z.output<typeof deliveryAnswer> {
	const body = JSON.parse(row.body) as { id: string; event: string; device: string; timestamp: number; data: unknown };
	return {
		id: row.id,
		webhookId: row.webhook_id,
		eventId: row.event_id,
		event: body.event,
		state: row.state,
		attempts: row.attempts,
		lastStatus: row.last_status,
		lastError: row.last_error,
		// Only a pending delivery has a next attempt; for one being tried right now it is the attempt's deadline.
		nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
		createdAt: row.created_at,
		payload: body,
	};
}

/** The subscription a route names, which must be one of that device's. */
function ownWebhook(services: Services, user: UserRow, deviceName: string, id: string) {
	const device = ownDevice(services, user, deviceName);
	const webhook = services.store.webhooks.byId(id);
	if (!webhook || webhook.device_id !== device.id) throw notFound(`id: no webhook ${id} on device '${device.name}'`);
	return { device, webhook };
}

const webhookParams = z.object({ name: z.string(), id: z.string() });

/**
 * What the dashboard needs besides the gateway and sandbox routes: a subscription's delivery log, a
 * replay, and a live stream of what happens on the user's devices. In `sandbox/v1`, as developer tools.
 */
export const dashboardRoutes = [
	route({
		method: 'GET',
		path: '/sandbox/v1/devices/{name}/webhook/{id}/deliveries',
		auth: 'user',
		summary: "A webhook subscription's delivery log, newest first: each event's state, attempts, last status code or error, and next retry",
		params: webhookParams,
		query: z.object({ limit: qInt.min(1).max(500).default(50) }),
		answer: z.array(deliveryAnswer),
		handler: ({ services, user, params, query }) => {
			const { webhook } = ownWebhook(services, user, params.name, params.id);
			return services.store.outbox.latestOfWebhook(webhook.id, query.limit).map(deliveryView);
		},
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/webhook/{id}/deliveries/{delivery}/replay',
		auth: 'user',
		summary: 'Deliver an event again (same event id and body) as a new delivery, attempted now; the original stays in the log',
		params: webhookParams.extend({ delivery: qInt.positive() }),
		answer: deliveryAnswer,
		status: 201,
		errors: [409],
		handler: ({ services, user, params }) => {
			const { device, webhook } = ownWebhook(services, user, params.name, params.id);
			const { outbox } = services.store;
			const replayed = services.store.tx(() => {
				const row = outbox.byId(params.delivery);
				if (!row || row.webhook_id !== webhook.id) throw notFound(`delivery: no delivery ${params.delivery} on webhook ${webhook.id}`);
				if (isExpired(webhook)) {
					throw conflict(`webhook ${webhook.id} of device '${device.name}' expired at ${new Date(webhook.expires_at!).toISOString()}: it receives nothing more, replays included; subscribe again (POST /wdm/v1/devices/${device.name}/webhook) to replay`);
				}
				if (row.state === 'pending') throw conflict(`delivery: ${row.id} is still pending; it is retried on its own`);
				if (!webhook.enabled) throw conflict(`webhook ${webhook.id} of device '${device.name}' is disabled; enable it (POST /wdm/v1/devices/${device.name}/webhook) to replay`);
				outbox.add(webhook.id, row.event_id, row.body, Date.now());
				return outbox.latestOfWebhook(webhook.id, 1)[0];
			});
			services.delivery.worker.wake();
			return deliveryView(replayed);
		},
	}),

	route({
		method: 'GET',
		path: '/sandbox/v1/events',
		auth: 'user',
		summary:
			"Server-sent events of the user's devices (or of one, with `device`): every gateway event as its webhook body names it, subscribed to or not, and `delivery` after each webhook delivery attempt",
		query: z.object({ device: z.string().min(1).optional() }),
		produces: 'text/event-stream',
		errors: [404, 429],
		handler: ({ services, user, query, request, reply }) => {
			const only = query.device ? ownDevice(services, user, query.device) : undefined;
			const watched = (device: DeviceRow | undefined): device is DeviceRow =>
				!!device && device.user_id === user.id && (!only || device.id === only.id);
			const { eventStreamsPerUser: perUser, eventStreamsMax: max, eventStreamBufferBytes: bufferBytes } = services.config;
			const stream = request.server.eventStreams.open(reply, user.id, { perUser, max, bufferBytes });
			stream.onEnd(
				services.events.observe((device, event, data) => {
					if (watched(device)) stream.send(event, { device: device.name, data });
				}),
			);
			const attempted = (row: OutboxRow) => {
				const webhook = services.store.webhooks.byId(row.webhook_id);
				const device = webhook && services.store.devices.byId(webhook.device_id);
				if (watched(device)) stream.send('delivery', { device: device.name, webhookId: row.webhook_id, id: row.id });
			};
			services.delivery.attempted.add(attempted);
			stream.onEnd(() => services.delivery.attempted.delete(attempted));
			return reply;
		},
	}),
];
