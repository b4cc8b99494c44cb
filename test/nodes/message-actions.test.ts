import type { App } from '../../server/src/app';
import { ADMIN_KEY, findMessage, type Client, type Device, storedDevice } from '../helpers/server';
import { PNG } from '../helpers/files';
import { gatewayWithDevice, jidOf, nodeRunner } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** WDM Message: Mark as Read, React, Delete for Everyone, Edit and Download's Download Quoted Media, run by n8n's engine. */

let server: App;
let api: Client;
let sandbox: Client;
let shop: Device;
let harness: N8nTestHarness;
let seq = 0;
/** A fresh contact for each test, so that chats and unread counts are the test's own. */
const contact = () => `55319${String(30000000 + ++seq).slice(-8)}`;

/** Runs the WDM Message node with the shop's instance token. */
const message = nodeRunner('CUSTOM.wdmMessage', () => harness);
const stored = (id: string) => findMessage(api, shop.token, id);

const unreadOf = (chatid: string) => {
	const device = storedDevice(server.services.store, shop.name)!;
	return server.services.store.chats.get(device.id, chatid)?.unread;
};

/** A contact sends the shop a message. */
async function inbound(body: Record<string, unknown>) {
	const res = await sandbox.post('/devices/shop/inbound', body, { key: ADMIN_KEY });
	expect(res.status).toBe(200);
	return res.body.data as { id: string; messageid: string };
}

async function sent(route: string, body: Record<string, unknown>) {
	const res = await api.post(route, body, { token: shop.token });
	expect(res.status).toBe(200);
	return res.body.data as { id: string; messageid: string; fileURL: string };
}

beforeAll(async () => {
	({ server, api, sandbox, shop, harness } = await gatewayWithDevice('shop'));
});
afterAll(() => server.close());

describe('markRead', () => {
	test('a list of message IDs: each becomes read, one item per message, and the chat counts them read', async () => {
		const number = contact();
		const a = await inbound({ from: number, text: 'a' });
		const b = await inbound({ from: number, text: 'b' });
		const c = await inbound({ from: number, text: 'c' });
		expect(unreadOf(jidOf(number))).toBe(3);

		const run = await message({ operation: 'markRead', ids: [a.id, b.messageid] });
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => [i.json.id, i.json.status])).toEqual([
			[a.id, 'read'],
			[b.id, 'read'],
		]);
		expect((await stored(a.id)).status).toBe('read');
		expect((await stored(b.id)).status).toBe('read');
		expect((await stored(c.id)).status).toBe('delivered');
		expect(unreadOf(jidOf(number))).toBe(1);
	});

	test('IDs from the input: a comma-separated expression, or an expression giving a list', async () => {
		const number = contact();
		const a = await inbound({ from: number, text: 'a' });
		const b = await inbound({ from: number, text: 'b' });
		const c = await inbound({ from: number, text: 'c' });

		const commas = await message({ operation: 'markRead', ids: ['={{ $json.ids }}'] }, { input: [{ json: { ids: `${a.id}, ${b.id}` } }] });
		expect(commas.error).toBeUndefined();
		expect(commas.items.map((i) => i.json.id)).toEqual([a.id, b.id]);

		const list = await message({ operation: 'markRead', ids: '={{ $json.ids }}' }, { input: [{ json: { ids: [c.id] } }] });
		expect(list.error).toBeUndefined();
		expect(list.items.map((i) => [i.json.id, i.json.status])).toEqual([[c.id, 'read']]);
		expect(unreadOf(jidOf(number))).toBe(0);
	});

	test('unknown IDs: a 404 naming them; with Continue on error, an error item', async () => {
		const m = await inbound({ from: contact(), text: 'stay unread' });
		const run = await message({ operation: 'markRead', ids: [m.id, 'nope'] });
		expect(run.error).toMatchObject({ httpCode: '404', message: 'id: no message with id "nope" on this device' });
		expect((await stored(m.id)).status).toBe('delivered');

		const cont = await message({ operation: 'markRead', ids: ['nope'] }, { onError: 'continueRegularOutput' });
		expect(cont.error).toBeUndefined();
		expect(cont.items[0].json).toEqual({ error: 'id: no message with id "nope" on this device' });
	});

	test('IDs that resolve to nothing: the node asks for an ID before calling the gateway', async () => {
		const run = await message({ operation: 'markRead', ids: ['={{ $json.ids }}'] }, { input: [{ json: { ids: ' , ' } }] });
		expect(run.error).toMatchObject({ message: 'Add at least one message ID to mark as read' });
	});
});

describe('react', () => {
	test('reacts with an emoji, replaces it, then Remove Reaction takes it back', async () => {
		const number = contact();
		const m = await inbound({ from: number, text: 'thanks!' });

		const run = await message({ operation: 'react', number, id: m.id, reaction: '👍' });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: m.id, reaction: '👍', reactions: [{ sender: shop.jid, text: '👍' }] });
		expect((await stored(m.id)).reaction).toBe('👍');

		await message({ operation: 'react', number: jidOf(number), id: m.id, reaction: '❤️' });
		expect((await stored(m.id)).reaction).toBe('❤️');

		// The emoji field is hidden then; what it held is not sent.
		const removed = await message({ operation: 'react', number, id: m.id, removeReaction: true, reaction: '❤️' });
		expect(removed.error).toBeUndefined();
		expect(removed.items[0].json).toMatchObject({ reaction: null, reactions: [] });
		expect((await stored(m.id)).reactions).toEqual([]);
	});

	test('an emoji expression that gives an empty value removes the reaction too', async () => {
		const number = contact();
		const m = await inbound({ from: number, text: 'hi' });
		await message({ operation: 'react', number, id: m.id, reaction: '🙏' });
		const run = await message({ operation: 'react', number, id: m.id, reaction: '={{ $json.emoji }}' }, { input: [{ json: { emoji: '' } }] });
		expect(run.error).toBeUndefined();
		expect((await stored(m.id)).reaction).toBeNull();
	});

	test('not an emoji, or the wrong chat: 400 with the gateway message', async () => {
		const number = contact();
		const m = await inbound({ from: number, text: 'hi' });
		const words = await message({ operation: 'react', number, id: m.id, reaction: 'great' });
		expect(words.error).toMatchObject({ httpCode: '400', message: 'text must be a single emoji, or empty to remove the reaction' });
		const other = await message({ operation: 'react', number: '5511988880000', id: m.id, reaction: '👍' });
		expect(other.error).toMatchObject({ httpCode: '400', message: `number: message "${m.id}" is in chat ${jidOf(number)}, not in 5511988880000` });
		expect((await stored(m.id)).reactions).toEqual([]);
	});
});

describe('delete', () => {
	test('deletes a message the device sent, for everyone', async () => {
		const mine = await sent('/send/media', { number: contact(), type: 'image', file: PNG.toString('base64'), text: 'wrong picture' });
		const run = await message({ operation: 'delete', id: mine.id });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: mine.id, status: 'deleted', text: null, fileURL: null });
		expect(await stored(mine.id)).toMatchObject({ status: 'deleted', text: null, fileURL: null });
		expect((await fetch(mine.fileURL)).status).toBe(404);
	});

	test("someone else's message: 400; with Continue on error the other items still go through", async () => {
		const number = contact();
		const theirs = await inbound({ from: number, text: 'not yours' });
		const mine = await sent('/send/text', { number, text: 'mine' });
		const run = await message(
			{ operation: 'delete', id: '={{ $json.id }}' },
			{ input: [{ json: { id: theirs.id } }, { json: { id: mine.id } }], onError: 'continueRegularOutput' },
		);
		expect(run.error).toBeUndefined();
		const refusal = `id: message "${theirs.id}" was sent by ${jidOf(number)}; only messages sent by this device can be deleted for everyone`;
		expect(run.items[0].json).toEqual({ error: refusal });
		expect(run.items[1].json).toMatchObject({ id: mine.id, status: 'deleted' });
		expect((await stored(theirs.id)).text).toBe('not yours');
	});
});

describe('edit', () => {
	test('replaces the text of a sent text message', async () => {
		const mine = await sent('/send/text', { number: contact(), text: 'Price: 10' });
		const run = await message({ operation: 'edit', id: mine.id, text: 'Price: 12' });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: mine.id, text: 'Price: 12', edited: true, content: { originalText: 'Price: 10' } });
		expect(await stored(mine.id)).toMatchObject({ text: 'Price: 12', edited: true });
	});

	test('a media message cannot be edited: 400', async () => {
		const image = await sent('/send/media', { number: contact(), type: 'image', file: PNG.toString('base64') });
		const run = await message({ operation: 'edit', id: image.id, text: 'new caption' });
		expect(run.error).toMatchObject({ httpCode: '400', message: `id: message "${image.id}" is an image message; only text messages can be edited` });
	});
});

describe('download: Download Quoted Media', () => {
	test("a contact's reply to the shop's picture: the picture is the output file", async () => {
		const number = contact();
		const picture = await sent('/send/media', { number, type: 'image', file: PNG.toString('base64') });
		const reply = await inbound({ from: number, text: 'do you have it in red?', replyid: picture.id });

		const run = await message({ operation: 'download', id: reply.id, options: { download_quoted: true } });
		expect(run.error).toBeUndefined();
		const { json, binary } = run.items[0];
		expect(json).toMatchObject({ id: picture.id, mimetype: 'image/png', fileURL: picture.fileURL });
		expect(binary?.data).toMatchObject({ mimeType: 'image/png' });
		expect(Buffer.from(binary!.data.data, 'base64').equals(PNG)).toBe(true);
	});

	test('a message that quotes nothing: 400', async () => {
		const m = await inbound({ from: contact(), text: 'no quote' });
		const run = await message({ operation: 'download', id: m.id, options: { download_quoted: true } });
		expect(run.error).toMatchObject({ httpCode: '400', message: `download_quoted: message "${m.id}" does not quote another message` });
	});
});
