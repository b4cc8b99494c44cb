// The bot in n8n at speed (issue 42): the same bot built twice in one running n8n, measured side by side
// by bench/n8n-bot.ts and, at a small size, by test/e2e/bot-speed.test.ts. Ours is WDM Trigger (messages,
// excluding sent-by-API) -> WDM Message Send Text to the sender; the baseline is n8n's Webhook node
// (answering at once) -> HTTP Request to /send/text, its URL subscribed to another device with the
// gateway's webhook route. Only HTTP to the reference server: it runs in this process (the e2e) or in
// its own (the benchmark).
import crypto from 'node:crypto';
import type { N8nServer } from './n8n-server';
import { httpRequest, link, node, type CredentialRef } from './workflows';

export const OURS_WORKFLOW = 'wdmBotSpeedOurs1';
export const BASELINE_WORKFLOW = 'wdmBotSpeedBase1';
const BASELINE_PATH = 'wdm-bot-speed-baseline';

/** Ours: WDM Trigger -> WDM Message Send Text, answering the sender in its chat. */
export function oursWorkflow(device: string, user: CredentialRef, instance: CredentialRef) {
	const trigger = {
		...node(
			'WDM Trigger',
			'n8n-nodes-wdm.wdmTrigger',
			// The Device as the editor saves it: a resource locator.
			{ device: { __rl: true, mode: 'list', value: device, cachedResultName: device }, events: ['messages'], excludeMessages: ['wasSentByApi'] },
			{ wdmUserApi: user },
		),
		webhookId: crypto.randomUUID(),
	};
	const reply = node('Reply', 'n8n-nodes-wdm.wdmMessage', { operation: 'sendText', number: '={{ $json.data.chatid }}', text: '=reply to {{ $json.data.text }}', options: {} }, { wdmInstanceApi: instance });
	return { id: OURS_WORKFLOW, name: 'Bot speed: WDM', active: false, settings: {}, nodes: [trigger, reply], connections: { 'WDM Trigger': link('Reply') } };
}

/** The baseline: Webhook (respond immediately) -> HTTP Request to /send/text with the device's token (a Header Auth credential). */
export function baselineWorkflow(gateway: string, header: CredentialRef) {
	const trigger = {
		...node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: BASELINE_PATH, responseMode: 'onReceived', options: {} }),
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
	};
	const reply = { ...httpRequest(`${gateway}/send/text`, header, { number: '={{ $json.body.data.chatid }}', text: '=reply to {{ $json.body.data.text }}' }, 'httpHeaderAuth'), name: 'Reply', id: 'Reply' };
	return { id: BASELINE_WORKFLOW, name: 'Bot speed: Webhook + HTTP Request', active: false, settings: {}, nodes: [trigger, reply], connections: { Webhook: link('Reply') } };
}

/** The baseline's webhook URL in the n8n at `n8nUrl`. */
export const baselineUrl = (n8nUrl: string) => `${n8nUrl}/webhook/${BASELINE_PATH}`;

/** The reference server, as far as the bots' measurement reaches it. */
export interface Target {
	/** `http://host:port` */
	url: string;
	adminKey: string;
}

async function call(target: Target, route: string, body: unknown, auth: { key?: string; token?: string }) {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (auth.key) headers.authorization = `Bearer ${auth.key}`;
	if (auth.token) headers.token = auth.token;
	const res = await fetch(`${target.url}/wp-json${route}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const answer = (await res.json()) as { data: any };
	if (res.status >= 300) throw new Error(`${route}: HTTP ${res.status} ${JSON.stringify(answer)}`);
	return answer.data;
}

/** A connected device of the admin: its token. */
export async function pairedDevice(target: Target, name: string): Promise<string> {
	const created = await call(target, '/wdm/v1/devices', { name }, { key: target.adminKey });
	await call(target, `/wdm/v1/devices/${name}/qr`, undefined, { key: target.adminKey });
	await call(target, `/sandbox/v1/devices/${name}/pair`, {}, { key: target.adminKey });
	return created.token as string;
}

/** Subscribes `url` to the device's messages, its own sends left out, as the WDM Trigger subscribes. */
export const subscribe = (target: Target, device: string, url: string) =>
	call(target, `/wdm/v1/devices/${device}/webhook`, { url, events: ['messages'], excludeMessages: ['wasSentByApi'], enabled: true }, { key: target.adminKey });

export interface Bot {
	label: 'ours' | 'baseline';
	device: string;
	token: string;
}

/**
 * Both bots in a running n8n, before it starts: their credentials (ids `<idPrefix>UserKey1`, ...: eight
 * characters of prefix) and workflows, published; then n8n starts and the baseline's device is
 * subscribed to its Webhook node.
 */
export async function installBots(n8n: N8nServer, target: Target, ours: Bot, baseline: Bot, idPrefix: string) {
	const gateway = `${target.url}/wp-json/wdm/v1`;
	const user = { id: `${idPrefix}UserKey1`, name: 'WDM account' };
	const instance = { id: `${idPrefix}Instanc1`, name: 'WDM bot' };
	const header = { id: `${idPrefix}Header01`, name: 'Bot token header' };
	await n8n.importCredentials([
		{ ...user, type: 'wdmUserApi', data: { baseUrl: gateway, apiKey: target.adminKey } },
		{ ...instance, type: 'wdmInstanceApi', data: { baseUrl: gateway, token: ours.token } },
		{ ...header, type: 'httpHeaderAuth', data: { name: 'token', value: baseline.token } },
	]);
	await n8n.importWorkflow([oursWorkflow(ours.device, user, instance), baselineWorkflow(gateway, header)]);
	await n8n.publish(OURS_WORKFLOW);
	await n8n.publish(BASELINE_WORKFLOW);
	await n8n.start();
	await subscribe(target, baseline.device, baselineUrl(n8n.url));
}

/** A phase: `count` messages one at a time (each sent once the last is answered), or `rate` a second for `seconds`. */
export type Phase = { name: string; count: number; oneAtATime: true } | { name: string; rate: number; seconds: number };

export interface PhaseResult {
	bot: Bot['label'];
	phase: string;
	sent: number;
	/** Reply's stored time minus the moment its message was sent through the sandbox, ms, one per answered message. */
	latencies: number[];
	lost: number;
	duplicated: number;
}

interface Stored {
	chatid: string;
	text: string | null;
	fromMe: boolean;
	messageTimestamp: number;
}

/** The device's replies (sent messages), newest first. */
async function replies(target: Target, bot: Bot, chatid?: string): Promise<Stored[]> {
	const out: Stored[] = [];
	for (let offset = 0; ; offset += 1000) {
		const page = await call(target, '/wdm/v1/message/find', { limit: 1000, offset, ...(chatid ? { chatid } : {}) }, { token: bot.token });
		out.push(...(page.messages as Stored[]).filter((m) => m.fromMe));
		if (!page.hasMore) return out;
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one phase against one bot: every message from a number of its own (`run` keeps the numbers of
 * phases and bots apart), then waits until each has a reply or `timeoutMs` passed, and `settleMs` more
 * for any second reply.
 */
export async function runPhase(target: Target, bot: Bot, phase: Phase, run: number, options: { timeoutMs: number; settleMs?: number; gapMs?: number }): Promise<PhaseResult> {
	const count = 'oneAtATime' in phase ? phase.count : Math.round(phase.rate * phase.seconds);
	const contact = (i: number) => `55219${String(run).padStart(2, '0')}${String(i).padStart(6, '0')}`;
	const text = (i: number) => `bot ${bot.label} ${phase.name} #${i}`;
	const sentAt = new Map<string, number>(); // reply text -> when its message was sent
	const send = async (i: number) => {
		sentAt.set(`reply to ${text(i)}`, Date.now());
		await call(target, `/sandbox/v1/devices/${bot.device}/inbound`, { from: contact(i), text: text(i) }, { key: target.adminKey });
	};
	const deadline = Date.now() + options.timeoutMs;
	if ('oneAtATime' in phase) {
		for (let i = 0; i < count && Date.now() < deadline; i++) {
			await send(i);
			const wanted = `reply to ${text(i)}`;
			while (Date.now() < deadline && !(await replies(target, bot, contact(i))).some((m) => m.text === wanted)) await sleep(10);
			await sleep(options.gapMs ?? 500);
		}
	} else {
		// Open loop: message i leaves at i / rate seconds, whatever the bot does meanwhile.
		const start = Date.now();
		await Promise.all(
			Array.from({ length: count }, async (_, i) => {
				await sleep(start + (i * 1000) / phase.rate - Date.now());
				await send(i);
			}),
		);
	}
	const answered = async () => (await replies(target, bot)).filter((m) => sentAt.has(m.text ?? ''));
	while (Date.now() < deadline && new Set((await answered()).map((m) => m.text)).size < count) await sleep(250);
	await sleep(options.settleMs ?? 2000);
	const byText = new Map<string, Stored[]>();
	for (const m of await answered()) byText.set(m.text!, [...(byText.get(m.text!) ?? []), m]);
	// The first reply's time: a second one is counted as duplicated, not as a latency.
	const latencies = [...byText].map(([t, list]) => Math.min(...list.map((m) => m.messageTimestamp)) - sentAt.get(t)!);
	return {
		bot: bot.label,
		phase: phase.name,
		sent: sentAt.size,
		latencies,
		lost: count - byText.size,
		duplicated: [...byText.values()].filter((list) => list.length > 1).length,
	};
}

/** The q-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: number[], q: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * From n8n's debug log (`N8N_LOG_LEVEL=debug`) of messages to one bot, one at a time: per message, the
 * time from "Received webhook" to "Execution added" (n8n's webhook handler: the trigger's webhook() and
 * what n8n does around it), and the expression isolates n8n created (`[IsolatedVmBridge] Runtime bundle
 * loaded`, 60-120 ms of CPU each here) until the next message came.
 */
export function webhookCosts(log: string): { gaps: number[]; isolatesPerMessage: number } | undefined {
	const lines = log.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').split('\n'); // without colours
	// n8n's console lines start with the time of day, `hh:mm:ss.mmm`.
	const at = (line: string) => {
		const [h, m, sec, milli] = (/^(\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line) ?? []).slice(1).map(Number);
		return ((h * 60 + m) * 60 + sec) * 1000 + milli;
	};
	const gaps: number[] = [];
	const isolates: number[] = [];
	let received: number | undefined;
	for (const line of lines) {
		if (line.includes('Received webhook')) {
			received = at(line);
			isolates.push(0);
		} else if (received !== undefined && line.includes('Execution added')) {
			gaps.push(at(line) - received);
			received = undefined;
		} else if (line.includes('Runtime bundle loaded') && isolates.length) isolates[isolates.length - 1]++;
	}
	return gaps.length ? { gaps, isolatesPerMessage: isolates.reduce((a, b) => a + b, 0) / isolates.length } : undefined;
}
