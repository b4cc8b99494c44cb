// The bot under a burst while a bulk send runs, as test/e2e/burst.test.ts (one `n8n start`) and
// test/e2e/queue-mode.test.ts (main, workers and a webhook processor) run it against a real n8n: every
// contact's message gets exactly one reply. docs/decisions/webhooks.md, "Webhooks: exactly-once runs".
import crypto from 'node:crypto';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, eventually, storedDevice } from '../helpers/server';
import { link, node, subscribersNode, type CredentialRef } from './workflows';

export const BOT_WORKFLOW = 'wdmE2eBurstBot01';
export const BULK_WORKFLOW = 'wdmE2eBurstBulk1';
export const BULK_PATH = 'wdm-burst-bulk';

/**
 * The bot: WDM Trigger on `device` -> a reply to each message, in its chat, that names the message. The
 * reply's idempotency key is the event's id (`webhook-id`, the same in every delivery): a run that dies
 * after its reply and runs again (a killed worker's, acknowledged at the end) sends nothing more.
 */
export function botWorkflow(device: string, user: CredentialRef, instance: CredentialRef, acknowledge: 'onReceived' | 'lastNode', id = BOT_WORKFLOW) {
	const trigger = {
		...node(
			'WDM Trigger',
			'n8n-nodes-wdm.wdmTrigger',
			// The Device as the editor saves it: a resource locator.
			{ device: { __rl: true, mode: 'list', value: device, cachedResultName: device }, events: ['messages'], excludeMessages: ['wasSentByApi'], acknowledge },
			{ wdmUserApi: user },
		),
		webhookId: crypto.randomUUID(),
	};
	const reply = node(
		'Reply',
		'n8n-nodes-wdm.wdmMessage',
		{ operation: 'sendText', number: '={{ $json.data.chatid }}', text: '=reply to {{ $json.data.text }}', options: { idempotencyKey: '=reply-{{ $json.id }}' } },
		{ wdmInstanceApi: instance },
	);
	return { id, name: `WDM burst bot (${device})`, active: false, settings: {}, nodes: [trigger, reply], connections: { 'WDM Trigger': link('Reply') } };
}

/** A bulk send of `count` texts, started by a Webhook trigger (so that, in queue mode, a worker runs it). */
export function bulkWorkflow(count: number, instance: CredentialRef) {
	const trigger = {
		...node('Start', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: BULK_PATH, responseMode: 'onReceived', options: {} }),
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
	};
	const send = node(
		'Send',
		'n8n-nodes-wdm.wdmMessage',
		{ operation: 'sendText', number: '={{ $json.phone }}', text: '=Hello {{ $json.name }}, your code is {{ $json.id }}', options: { track_id: '={{ $json.id }}' } },
		{ wdmInstanceApi: instance },
	);
	return {
		id: BULK_WORKFLOW,
		name: 'WDM burst bulk',
		active: false,
		settings: {},
		nodes: [trigger, subscribersNode(count), send],
		connections: { Start: link('Subscribers'), Subscribers: link('Send') },
	};
}

/** Messages the device sent (from_me), by text. */
export function sentTexts(server: App, device: string): string[] {
	const row = storedDevice(server.services.store, device)!;
	return (server.services.store.db.prepare('SELECT text FROM messages WHERE device_id = ? AND from_me = 1').all(row.id) as Array<{ text: string }>).map(
		(m) => m.text,
	);
}

export const burstText = (run: string, i: number) => `price ${run}-${i}`;
export const contactOf = (run: string, i: number) => `55119${run.padStart(2, '0').slice(-2)}${String(i).padStart(6, '0')}`;

/**
 * `count` contacts each write once to the bot's device, all at once; resolves when every one has its
 * reply, then waits `settleMs` more for any second reply. Returns the replies, by text, counted.
 */
export async function burst(server: App, device: string, run: string, count: number, options: { timeoutMs: number; settleMs?: number; during?: () => Promise<void> }) {
	const sandbox = client(server.url, '/wp-json/sandbox/v1');
	// Each attempt's outcome, by message text (to tell why an event ran twice, if one does).
	const outcomes = new Map<string, string[]>();
	const record = (before: { id: number }) => {
		const row = server.services.store.outbox.byId(before.id);
		if (!row) return;
		const text = String(JSON.parse(row.body).data?.text);
		outcomes.set(text, [...(outcomes.get(text) ?? []), `${row.last_status ?? '-'} ${row.last_error ?? ''}`.trim()]);
	};
	server.services.delivery.attempted.add(record);
	const deviceId = storedDevice(server.services.store, device)!.id;
	const replaysBefore = server.services.store.sendKeys.replays(deviceId);
	const writes = Array.from({ length: count }, (_, i) =>
		sandbox.post(`/devices/${device}/inbound`, { from: contactOf(run, i), text: burstText(run, i) }, { key: ADMIN_KEY }),
	);
	const statuses = (await Promise.all(writes)).map((r) => r.status);
	if (statuses.some((s) => s !== 200)) throw new Error(`inbound answered ${statuses.filter((s) => s !== 200).join(', ')}`);
	await options.during?.();
	const wanted = new Set(Array.from({ length: count }, (_, i) => `reply to ${burstText(run, i)}`));
	const replies = () => sentTexts(server, device).filter((t) => wanted.has(t));
	await eventually(() => new Set(replies()).size === count, options.timeoutMs, 500).catch(() => undefined);
	await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 5000));
	server.services.delivery.attempted.delete(record);
	const counted = new Map<string, number>();
	for (const text of replies()) counted.set(text, (counted.get(text) ?? 0) + 1);
	const missing = [...wanted].filter((t) => !counted.has(t));
	const duplicated = [...counted].filter(([, n]) => n > 1).map(([t, n]) => `${t} x${n}`);
	const retried = [...outcomes].filter(([, list]) => list.length > 1);
	if (missing.length || duplicated.length || retried.length) console.log(`attempts of events delivered more than once:\n${retried.map(([t, list]) => `${t}: ${list.join(' | ')}`).join('\n')}`);
	// `redelivered`: events delivered more than once (a run lost with its worker, a late answer);
	// `replayed`: replies sent again by a run that ran again, answered by their idempotency key.
	const replayed = server.services.store.sendKeys.replays(deviceId) - replaysBefore;
	return { missing, duplicated, replies: replies().length, redelivered: retried.length, replayed };
}

/** Starts the bulk send through its Webhook trigger at `webhookBase` (`http://host:port/webhook`). */
export async function startBulk(webhookBase: string) {
	const res = await fetch(`${webhookBase}/${BULK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	if (res.status !== 200) throw new Error(`bulk start answered ${res.status}: ${await res.text()}`);
}

/** Waits until the bulk device has sent `count` messages (the bulk's texts), and says how many it sent. */
export async function bulkDone(server: App, device: string, count: number, timeoutMs: number) {
	await eventually(() => sentTexts(server, device).length >= count, timeoutMs, 1000).catch(() => undefined);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	const texts = sentTexts(server, device);
	return { sent: texts.length, distinct: new Set(texts).size };
}
