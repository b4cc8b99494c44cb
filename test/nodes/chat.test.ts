import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, type Client, type Device, storedDevice } from '../helpers/server';
import { gatewayWithDevice, instanceHarness, jidOf, nodeRunner, runNode, type NodeParameters } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';
import { sleep } from '../helpers/webhooks';

/** Every operation of WDM Chat, run by n8n's engine against a live server, with the state read back. */

let server: App;
let shop: Device;
let harness: N8nTestHarness;
let api: Client;
let sandbox: Client;

const chat = nodeRunner('CUSTOM.wdmChat', () => harness);

let seq = 0;
const number = () => `55217${String(++seq).padStart(8, '0')}`;

/** A contact writes to the shop: the shop then has a chat with it. */
async function inbound(from: string, text = 'hi', senderName?: string, to = shop.name) {
	const res = await sandbox.post(`/devices/${to}/inbound`, { from, text, senderName }, { key: ADMIN_KEY });
	expect(res.status).toBe(200);
	await sleep(3);
	return res.body.data;
}

/** The chat as the server shows it. */
async function stored(phone: string) {
	const res = await api.post('/chat/find', { wa_chatid: jidOf(phone) }, { token: shop.token });
	return res.body.data.chats[0];
}
const messagesOf = async (phone: string) => (await api.post('/message/find', { chatid: phone }, { token: shop.token })).body.data.messages;

beforeAll(async () => {
	({ server, api, sandbox, shop, harness } = await gatewayWithDevice('shop'));
});
afterAll(() => server.close());

describe('archive, mark read, mute, pin', () => {
	test('Archive archives and unarchives', async () => {
		const peer = number();
		await inbound(peer);
		const archived = await chat({ operation: 'archive', number: peer, archive: true });
		expect(archived.error).toBeUndefined();
		expect(archived.items.map((i) => i.json)).toEqual([expect.objectContaining({ wa_chatid: jidOf(peer), wa_archived: true })]);
		expect((await stored(peer)).wa_archived).toBe(true);
		expect((await chat({ operation: 'archive', number: jidOf(peer), archive: false })).items[0].json.wa_archived).toBe(false);
		expect((await stored(peer)).wa_archived).toBe(false);
	});

	test('Mark Read or Unread: read reads the received messages; unread shows the chat unread', async () => {
		const peer = number();
		await inbound(peer, 'one');
		await inbound(peer, 'two');
		const read = await chat({ operation: 'markRead', number: peer, read: true });
		expect(read.error).toBeUndefined();
		expect(read.items[0].json).toMatchObject({ wa_chatid: jidOf(peer), wa_unreadCount: 0 });
		expect((await messagesOf(peer)).map((m: { status: string }) => m.status)).toEqual(['read', 'read']);
		// Read is the default.
		const unread = await chat({ operation: 'markRead', number: peer, read: false });
		expect(unread.items[0].json.wa_unreadCount).toBe(1);
		expect((await stored(peer)).wa_unreadCount).toBe(1);
		expect((await chat({ operation: 'markRead', number: peer })).items[0].json.wa_unreadCount).toBe(0);
	});

	test('Mute: 8 hours (the default), 1 week, forever, unmute', async () => {
		const peer = number();
		await inbound(peer);
		const start = Date.now();
		const eight = await chat({ operation: 'mute', number: peer });
		expect(eight.error).toBeUndefined();
		expect(eight.items[0].json.wa_muteEndTime).toBeGreaterThanOrEqual(start + 8 * 3_600_000);
		const week = await chat({ operation: 'mute', number: peer, muteEndTime: 168 });
		expect(week.items[0].json.wa_muteEndTime).toBeGreaterThanOrEqual(start + 168 * 3_600_000);
		expect((await stored(peer)).wa_muteEndTime).toBe(week.items[0].json.wa_muteEndTime);
		expect((await chat({ operation: 'mute', number: peer, muteEndTime: -1 })).items[0].json.wa_muteEndTime).toBe(-1);
		expect((await stored(peer)).wa_muteEndTime).toBe(-1);
		expect((await chat({ operation: 'mute', number: peer, muteEndTime: 0 })).items[0].json.wa_muteEndTime).toBe(0);
		expect((await stored(peer)).wa_muteEndTime).toBe(0);
	});

	test('Pin pins and unpins; a 4th pinned chat is the gateway error, with its status', async () => {
		const peers = [number(), number(), number(), number()];
		for (const peer of peers) await inbound(peer);
		for (const peer of peers.slice(0, 3)) expect((await chat({ operation: 'pin', number: peer })).items[0].json.wa_isPinned).toBe(true);
		const refused = await chat({ operation: 'pin', number: peers[3], pin: true });
		expect(refused.error).toMatchObject({ httpCode: '500', message: expect.stringMatching(/^only 3 chats can be pinned; unpin one of/) });
		expect((await stored(peers[3])).wa_isPinned).toBe(false);
		for (const peer of peers.slice(0, 3)) {
			expect((await chat({ operation: 'pin', number: peer, pin: false })).items[0].json.wa_isPinned).toBe(false);
		}
		expect((await api.post('/chat/find', { wa_isPinned: true }, { token: shop.token })).body.data.total).toBe(0);
	});
});

describe('Delete', () => {
	test('by default on the network and from the database, keeping the messages; or everything', async () => {
		const peer = number();
		await inbound(peer);
		const deleted = await chat({ operation: 'delete', number: peer });
		expect(deleted.error).toBeUndefined();
		expect(deleted.items[0].json).toEqual({ number: jidOf(peer), chatDeleted: true, messagesDeleted: 0, deletedOnNetwork: true });
		expect(await stored(peer)).toBeUndefined();
		expect(await messagesOf(peer)).toHaveLength(1);

		const other = number();
		await inbound(other);
		await inbound(other);
		const all = await chat({ operation: 'delete', number: jidOf(other), deleteMessagesDB: true });
		expect(all.items[0].json).toEqual({ number: jidOf(other), chatDeleted: true, messagesDeleted: 2, deletedOnNetwork: true });
		expect(await messagesOf(other)).toHaveLength(0);
	});

	test('only the messages, or with every flag off: the gateway says which flags exist', async () => {
		const peer = number();
		await inbound(peer);
		const messages = await chat({ operation: 'delete', number: peer, deleteChatNetwork: false, deleteChatDB: false, deleteMessagesDB: true });
		expect(messages.items[0].json).toEqual({ number: jidOf(peer), chatDeleted: false, messagesDeleted: 1, deletedOnNetwork: false });
		expect(await stored(peer)).toBeDefined();
		const none = await chat({ operation: 'delete', number: peer, deleteChatNetwork: false, deleteChatDB: false });
		expect(none.error).toMatchObject({ httpCode: '400', message: 'set at least one of deleteChatDB, deleteMessagesDB, deleteChatNetwork to true' });
	});
});

describe('Find', () => {
	const ana = number();
	const bruno = number();
	const carla = number();
	/** A device of its own, so that the other tests' chats do not show up. */
	let finder: Device;
	let finderHarness: N8nTestHarness;
	const find = (parameters: NodeParameters) => runNode(finderHarness, 'CUSTOM.wdmChat', { operation: 'find', ...parameters });

	beforeAll(async () => {
		finder = await connectedDevice(server, 'finder');
		finderHarness = instanceHarness(server, finder.token);
		await inbound(ana, 'a1', 'Ana Souza', finder.name);
		await inbound(ana, 'a2', undefined, finder.name);
		await inbound(bruno, 'b1', 'Bruno', finder.name);
		await inbound(carla, 'c1', 'Carla Dias', finder.name);
		expect((await api.post('/chat/archive', { number: bruno, archive: true }, { token: finder.token })).status).toBe(200);
		expect((await api.post('/chat/labels', { number: carla, labelids: ['2'] }, { token: finder.token })).status).toBe(200);
	});
	const chatIds = (run: { items: { json: { wa_chatid?: unknown } }[] }) => run.items.map((i) => i.json.wa_chatid);
	const filters = (...conditions: [string, string, string][]) => ({
		conditions: conditions.map(([attribute, operator, value]) => ({ attribute, operator, value })),
	});

	test('filters become prefixed values; several on one attribute combine', async () => {
		const contains = await find({ returnAll: true, filters: filters(['wa_name', 'contains', 'souza']) });
		expect(contains.error).toBeUndefined();
		expect(chatIds(contains)).toEqual([jidOf(ana)]);
		expect(contains.items[0].json).toMatchObject({ wa_name: 'Ana Souza', wa_unreadCount: 2, wa_isGroup: false });

		expect(chatIds(await find({ returnAll: true, filters: filters(['wa_archived', 'equals', 'true']) }))).toEqual([jidOf(bruno)]);
		expect(chatIds(await find({ returnAll: true, filters: filters(['wa_label', 'equals', '2']) }))).toEqual([jidOf(carla)]);
		const range = await find({
			returnAll: true,
			filters: filters(['wa_unreadCount', 'gte', '1'], ['wa_unreadCount', 'lt', '2'], ['wa_name', 'notEquals', 'Bruno']),
		});
		expect(chatIds(range)).toEqual([jidOf(carla)]);
		const named = await find({ returnAll: true, filters: filters(['wa_name', 'equals', 'Bruno']) });
		expect(chatIds(named)).toEqual([jidOf(bruno)]);
		const greater = await find({ returnAll: true, filters: filters(['wa_unreadCount', 'gt', '1'], ['phone', 'lte', carla]) });
		expect(chatIds(greater)).toEqual([jidOf(ana)]);
	});

	test('options: match any filter, sort by an attribute either way', async () => {
		const any = await find({
			returnAll: true,
			filters: filters(['wa_archived', 'equals', 'true'], ['wa_label', 'equals', '2']),
			options: { operator: 'OR', sortBy: 'wa_name', sortOrder: 'asc' },
		});
		expect(any.error).toBeUndefined();
		expect(chatIds(any)).toEqual([jidOf(bruno), jidOf(carla)]);
		const desc = await find({
			returnAll: true,
			filters: filters(['wa_name', 'contains', 'a']),
			options: { sortBy: 'wa_name' },
		});
		expect(chatIds(desc)).toEqual([jidOf(carla), jidOf(ana)]);
		const all = await find({ returnAll: true, filters: filters(['phone', 'contains', '55217']) });
		// Newest message first by default.
		expect(chatIds(all).slice(0, 3)).toEqual([jidOf(carla), jidOf(bruno), jidOf(ana)]);
	});

	test('Return All pages through every chat; Limit returns that many', async () => {
		// Many chats at once, straight in the store: the paging is what is tested here.
		const many = await connectedDevice(server, 'many');
		const device = storedDevice(server.services.store, many.name)!;
		for (let i = 0; i < 130; i++) server.services.store.chats.create(device.id, { chatid: jidOf(`55216${String(i).padStart(8, '0')}`), name: `c${i}`, isGroup: false });
		const h = instanceHarness(server, many.token);
		const all = await runNode(h, 'CUSTOM.wdmChat', { operation: 'find', returnAll: true, options: { sortBy: 'wa_name', sortOrder: 'asc' } });
		expect(all.error).toBeUndefined();
		expect(all.items).toHaveLength(130);
		expect(new Set(all.items.map((i) => i.json.wa_chatid)).size).toBe(130);
		const limited = await runNode(h, 'CUSTOM.wdmChat', { operation: 'find', limit: 105, options: { sortBy: 'phone', sortOrder: 'asc' } });
		expect(limited.items.map((i) => i.json.wa_name)).toEqual(Array.from({ length: 105 }, (_, i) => `c${i}`));
		expect((await runNode(h, 'CUSTOM.wdmChat', { operation: 'find' })).items).toHaveLength(50);
	});

	test('a filter the gateway refuses is a node error with its message', async () => {
		const bad = await find({ returnAll: true, filters: filters(['wa_unreadCount', 'contains', '1']) });
		expect(bad.error).toMatchObject({
			httpCode: '400',
			message: 'wa_unreadCount: the operator "~" does not apply to number attributes; use "=", "!=", ">", ">=", "<", "<=" (got "~1")',
		});
		const bool = await find({ returnAll: true, filters: filters(['wa_isPinned', 'equals', 'yes']) });
		expect(bool.error).toMatchObject({ httpCode: '400', message: 'wa_isPinned must be true or false, optionally after "!=" (got "=yes")' });
	});

	test('Equals takes a value starting with an operator character as it is', async () => {
		const tilde = number();
		await inbound(tilde, 'hi', '~Tilde', finder.name);
		expect(chatIds(await find({ returnAll: true, filters: filters(['wa_name', 'equals', '~Tilde']) }))).toEqual([jidOf(tilde)]);
		expect(chatIds(await find({ returnAll: true, filters: filters(['wa_name', 'contains', 'TILDE']) }))).toEqual([jidOf(tilde)]);
	});
});

describe('errors', () => {
	test('an unknown chat is a 404 node error with the gateway message', async () => {
		const stranger = number();
		for (const parameters of [
			{ operation: 'archive', number: stranger },
			{ operation: 'markRead', number: stranger },
			{ operation: 'mute', number: stranger },
			{ operation: 'pin', number: stranger },
		]) {
			const run = await chat(parameters);
			expect(run.error).toMatchObject({
				httpCode: '404',
				message: `number: no chat with ${jidOf(stranger)} on this device (a chat exists once a message was exchanged)`,
			});
		}
		expect((await chat({ operation: 'delete', number: stranger })).error).toMatchObject({ httpCode: '404' });
	});

	test("onError 'continueRegularOutput': failed items become error items, the others go through", async () => {
		const known = number();
		await inbound(known);
		const run = await chat(
			{ operation: 'archive', number: '={{ $json.phone }}', archive: true },
			{ input: [{ json: { phone: known } }, { json: { phone: 'nobody' } }], onError: 'continueRegularOutput' },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(run.items[0].json).toMatchObject({ wa_chatid: jidOf(known), wa_archived: true });
		expect(run.items[1].json).toEqual({ error: 'number must be an international phone number of 8 to 15 digits, country code first (got "nobody")' });
	});

	test('a wrong token is a 401 node error', async () => {
		const wrong = instanceHarness(server, 'wrong');
		const run = await runNode(wrong, 'CUSTOM.wdmChat', { operation: 'find' });
		expect(run.error).toMatchObject({ httpCode: '401', message: 'invalid instance token' });
	});
});
