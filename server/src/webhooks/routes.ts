import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { webhookAnswer, webhookView } from '../gateway/views';
import { EVENT_ID_LENGTH, EVENT_NAMES, MESSAGE_EXCLUSIONS } from './events';
import { isValidSecret, newSecret } from './signing';
import { isObviouslyPrivate } from '../outbound/policy';
import { parseAddress } from '../network/jid';
import type { Services } from '../services';
import type { DeviceRow } from '../store/types';

const name = z.object({ name: z.string() });

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const body = z
	.object({
		action: z.enum(['add', 'update', 'delete']).default('add'),
		id: z.string().optional(),
		url: httpUrl.optional(),
		/** Events to receive; empty or absent means all of them. */
		events: z.array(z.enum(EVENT_NAMES)).default([]),
		excludeMessages: z.array(z.enum(MESSAGE_EXCLUSIONS)).default([]),
		enabled: z.boolean().default(true),
		secret: z
			.string()
			.refine(isValidSecret, { error: 'must be "whsec_" followed by the Base64 of 24 to 64 bytes' })
			.optional(),
		/** Only this chat's events (a number or JID); absent: every chat's. */
		chatid: z.string().trim().min(1).optional(),
		/** Epoch ms after which the subscription receives nothing and is deleted; absent: no end. */
		expiresAt: z.number().int().positive().optional(),
	})
	.refine((b) => b.action === 'delete' || b.url, { error: 'is required', path: ['url'] })
	.refine((b) => b.action !== 'delete' || b.url || b.id, { error: 'or id is required to delete a webhook', path: ['url'] });

type Body = z.output<typeof body>;

/** The device's subscriptions, after deleting those whose time is over. */
function listOf(services: Services, device: DeviceRow) {
	services.store.webhooks.deleteExpired(device.id, Date.now());
	return services.store.webhooks.ofDevice(device.id).map(webhookView);
}

/** Adds, updates or deletes one subscription of the device (see `body`). */
function change(services: Services, device: DeviceRow, body: Body) {
	const { webhooks } = services.store;
	webhooks.deleteExpired(device.id, Date.now());
	// The URL identifies a subscription; `id` (from GET) may be used instead to delete one.
	const found = body.url ? webhooks.byUrl(device.id, body.url) : webhooks.byId(body.id!);
	const existing = found?.device_id === device.id ? found : undefined;
	if (body.action === 'delete') {
		if (!existing) throw notFound(`no webhook ${body.url ?? body.id} on device '${device.name}'`);
		webhooks.delete(existing.id);
		return { id: existing.id, url: existing.url, deleted: true };
	}
	if (body.action === 'update' && !existing) throw badRequest(`url: no webhook with this url on device '${device.name}' to update`);
	// Names that resolve to private addresses are refused at each delivery; these need no DNS to tell.
	if (!services.privateFetch.allowed && isObviouslyPrivate(body.url!)) {
		throw badRequest(`url: refused: private address (private targets are ${services.privateFetch.reason})`);
	}
	if (body.expiresAt !== undefined && body.expiresAt <= Date.now()) throw badRequest('expiresAt: must be in the future (epoch milliseconds)');
	const chatid = body.chatid === undefined ? null : parseAddress(body.chatid, 'chatid').jid;
	// A secret is generated only for a new subscription; it is shown in this answer and never again.
	const generated = !body.secret && !existing ? newSecret() : undefined;
	const row = webhooks.upsert({
		device_id: device.id,
		url: body.url!,
		events: JSON.stringify(body.events),
		exclude_messages: JSON.stringify(body.excludeMessages),
		enabled: body.enabled ? 1 : 0,
		secret: body.secret ?? existing?.secret ?? generated!,
		chatid,
		expires_at: body.expiresAt ?? null,
	});
	return { ...webhookView(row), ...(generated ? { secret: generated } : {}) };
}

const claimBody = z.object({
	/** The subscription the event came through (its `id`, as GET lists it). */
	subscription: z.string().min(1),
	/** The event's `webhook-id` header (a claim is kept: no longer than the ids the server makes). */
	event: z.string().min(1).max(EVENT_ID_LENGTH),
	/** The attempt's `webhook-timestamp` header: that attempt's failure releases the claim when asked. */
	timestamp: z.coerce.number().int().nonnegative(),
	/** Release the claim when this attempt is recorded as failed (the receiver answers once its run is over). */
	releaseOnFailure: z.boolean().default(false),
});

/**
 * A receiver claims an event before it runs for it: the first claim wins, so an event delivered twice
 * (a retry after a slow answer, a redelivery after a killed worker) runs once, across every process of
 * the receiver (docs/decisions/webhooks.md, "Webhooks: exactly-once runs").
 */
function claim(services: Services, device: DeviceRow, body: z.output<typeof claimBody>) {
	const sub = services.store.webhooks.byId(body.subscription);
	if (sub?.device_id !== device.id) throw notFound(`no webhook ${body.subscription} on device '${device.name}'`);
	const claimed = services.delivery.claims.claim(sub.id, body.event, body.timestamp, body.releaseOnFailure);
	return { subscription: sub.id, event: body.event, claimed };
}

/** A device's webhook subscriptions: several per device, upserted by URL, removed by `action: "delete"`. */
export const webhookRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/devices/{name}/webhook',
		auth: 'user',
		summary: "List a device's webhook subscriptions (secrets are never shown)",
		params: name,
		answer: z.array(webhookAnswer),
		handler: ({ services, user, params }) => listOf(services, ownDevice(services, user, params.name)),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/devices/{name}/webhook',
		auth: 'user',
		summary: 'Add or update a webhook subscription (by URL), or delete one',
		params: name,
		body,
		answer: z.union([
			webhookAnswer.extend({ secret: z.string().optional().meta({ description: 'The signing secret, shown once: when it was generated' }) }),
			z.object({ id: z.string(), url: z.string(), deleted: z.boolean() }),
		]),
		handler: ({ services, user, params, body }) => change(services, ownDevice(services, user, params.name), body),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/devices/{name}/webhook/claim',
		auth: 'user',
		summary: "Claim a delivered event for a run (the WDM Trigger's de-duplication): claimed is false when it already was",
		params: name,
		body: claimBody,
		answer: z.object({ subscription: z.string(), event: z.string(), claimed: z.boolean().meta({ description: 'false: the event was already claimed, do not run it' }) }),
		handler: ({ services, user, params, body }) => claim(services, ownDevice(services, user, params.name), body),
	}),
];
