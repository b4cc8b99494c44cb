/**
 * The dashboard talks to the server like any client: the gateway (`wdm/v1`) and the sandbox
 * (`sandbox/v1`) over their REST routes, with the user's API key or a device's instance token.
 */

export interface Device {
	name: string;
	status: 'disconnected' | 'connecting' | 'connected';
	phone: string | null;
	profileName: string;
	token?: string;
}

export interface Qr {
	qrcode: string;
	paircode: string;
	expiresAt: number;
}

export interface Chat {
	wa_chatid: string;
	wa_name: string | null;
	phone: string;
	wa_unreadCount: number;
	wa_lastMsgTimestamp: number | null;
	wa_label: string[];
}

export interface Message {
	id: string;
	chatid: string;
	fromMe: boolean;
	messageType: string;
	text: string | null;
	messageTimestamp: number;
	status: string;
	reactions: { sender: string; text: string }[];
}

export interface Label {
	id: string;
	name: string;
	colorHex: string;
}

export interface Webhook {
	id: string;
	url: string;
	events: string[];
	enabled: boolean;
}

export interface Delivery {
	id: number;
	eventId: string;
	event: string;
	state: 'pending' | 'delivered' | 'failed';
	attempts: number;
	lastStatus: number | null;
	lastError: string | null;
	nextAttemptAt: number | null;
	createdAt: number;
}

/** A device's network on the sandbox (`GET /sandbox/v1/devices/{name}/network`). */
export interface Network {
	account: 'business' | 'ordinary';
	tier: number | 'unlimited';
	perSecond: number;
	perMinute: number;
	quality: { rating: 'high' | 'medium' | 'low'; score: number; blocks: number; reports: number };
	restrictedUntil: number | null;
	reconnectingUntil: number | null;
	uniqueRecipients24h: number;
	optOuts: number;
	rules: 'on' | 'off';
}

export interface OptOut {
	number: string;
	keyword: string | null;
	at: number;
}

/** A refusal of the server: its status and its own sentence. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

type Auth = { key: string } | { token: string };

function headers(auth: Auth, json: boolean): Record<string, string> {
	const h: Record<string, string> = 'key' in auth ? { authorization: `Bearer ${auth.key}` } : { token: auth.token };
	if (json) h['content-type'] = 'application/json';
	return h;
}

/** One gateway or sandbox call; answers the envelope's `data`, or throws the envelope's `message`. */
export async function call<T>(method: string, path: string, auth: Auth, body?: unknown): Promise<T> {
	const res = await fetch(`/wp-json${path}`, { method, headers: headers(auth, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
	const envelope = (await res.json().catch(() => ({}))) as { success?: boolean; data?: T; message?: string };
	if (!res.ok || !envelope.success) throw new ApiError(res.status, envelope.message ?? `HTTP ${res.status}`);
	return envelope.data as T;
}

/** The calls made with the user's API key (devices, webhooks, the sandbox). */
export function userApi(key: string) {
	const auth = { key };
	const device = (name: string) => `/wdm/v1/devices/${encodeURIComponent(name)}`;
	const sandbox = (name: string) => `/sandbox/v1/devices/${encodeURIComponent(name)}`;
	return {
		key,
		devices: () => call<Device[]>('GET', '/wdm/v1/devices', auth),
		createDevice: (name: string) => call<Device>('POST', '/wdm/v1/devices', auth, { name }),
		deleteDevice: (name: string) => call('DELETE', device(name), auth),
		qr: (name: string) => call<Device & Qr>('GET', `${device(name)}/qr`, auth),
		logout: (name: string) => call('POST', `${device(name)}/logout`, auth),
		/** The simulated phone scans the device's QR code. */
		pair: (name: string) => call<Device>('POST', `${sandbox(name)}/pair`, auth, {}),
		webhooks: (name: string) => call<Webhook[]>('GET', `${device(name)}/webhook`, auth),
		addWebhook: (name: string, url: string) => call<Webhook>('POST', `${device(name)}/webhook`, auth, { url }),
		deleteWebhook: (name: string, id: string) => call('POST', `${device(name)}/webhook`, auth, { action: 'delete', id }),
		deliveries: (name: string, id: string) => call<Delivery[]>('GET', `${sandbox(name)}/webhook/${id}/deliveries?limit=50`, auth),
		replay: (name: string, id: string, delivery: number) =>
			call<Delivery>('POST', `${sandbox(name)}/webhook/${id}/deliveries/${delivery}/replay`, auth),
		/** The contact `from` writes to the device. */
		inbound: (name: string, from: string, text: string) => call<Message>('POST', `${sandbox(name)}/inbound`, auth, { from, text }),
		read: (name: string, id: string) => call('POST', `${sandbox(name)}/read`, auth, { id }),
		react: (name: string, id: string, text: string) => call('POST', `${sandbox(name)}/react`, auth, { id, text }),
		typing: (name: string, from: string, presence: 'composing' | 'paused') => call('POST', `${sandbox(name)}/presence`, auth, { from, presence }),
		network: (name: string) => call<Network>('GET', `${sandbox(name)}/network`, auth),
		setAccount: (name: string, account: Network['account']) => call<Network>('PUT', `${sandbox(name)}/network`, auth, { account }),
		optOuts: (name: string) => call<OptOut[]>('GET', `${sandbox(name)}/network/opt-outs`, auth),
		clearOptOut: (name: string, number: string) => call('DELETE', `${sandbox(name)}/network/opt-outs/${encodeURIComponent(number)}`, auth),
	};
}
export type UserApi = ReturnType<typeof userApi>;

/** The calls made with a device's instance token (its chats, messages and labels). */
export function deviceApi(token: string) {
	const auth = { token };
	return {
		chats: () => call<{ chats: Chat[] }>('POST', '/wdm/v1/chat/find', auth, { sort: '-wa_lastMsgTimestamp', limit: 50 }).then((r) => r.chats),
		messages: (chatid: string) => call<{ messages: Message[] }>('POST', '/wdm/v1/message/find', auth, { chatid, limit: 50 }).then((r) => r.messages),
		labels: () => call<Label[]>('GET', '/wdm/v1/labels', auth),
		send: (number: string, text: string) => call<Message>('POST', '/wdm/v1/send/text', auth, { number, text }),
	};
}
export type DeviceApi = ReturnType<typeof deviceApi>;
