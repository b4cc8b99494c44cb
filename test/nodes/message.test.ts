import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, eventually, findMessage, type Client, type Device, storedDevice } from '../helpers/server';
import { OGG, PDF, PNG, serveFiles, type FileServer } from '../helpers/files';
import { fileItem, gatewayWithDevice, instanceHarness, nodeRunner, runNode, type NodeParameters } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

const CSV = Buffer.from('sku,qty\nA-1,3\nB-2,5\n');

const TO = '5511977770001';
const TO_JID = `${TO}@s.whatsapp.net`;

let server: App;
let files: FileServer;
let shop: Device;
let harness: N8nTestHarness;
let api: Client;
let sandbox: Client;

/** Runs the WDM Message node with the shop's instance token. */
const message = nodeRunner('CUSTOM.wdmMessage', () => harness);
const stored = (id: string) => findMessage(api, shop.token, id);

/** Fetches a stored file through its public URL. */
async function download(url: string) {
	const res = await fetch(url);
	return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
	({ server, api, sandbox, shop, harness } = await gatewayWithDevice('shop'));
	// Where the gateway downloads media from for File Source "URL".
	files = await serveFiles({ '/photo.png': ['image/png', PNG], '/files/price%20list.pdf': ['application/pdf', PDF] });
});
afterAll(async () => {
	await files.close();
	await server.close();
});

describe('sendText', () => {
	test('sends the text; the server stores it as sent by the API', async () => {
		const sent = await message({ operation: 'sendText', number: TO, text: 'Hello from n8n' });
		expect(sent.error).toBeUndefined();
		expect(sent.items).toHaveLength(1);
		const json = sent.items[0].json;
		expect(json).toMatchObject({
			chatid: TO_JID,
			sender: shop.jid,
			fromMe: true,
			messageType: 'text',
			text: 'Hello from n8n',
			status: 'sent',
			wasSentByApi: true,
		});
		expect(json.id).toBe(`${shop.phone}:${json.messageid}`);
		expect(await stored(json.id as string)).toMatchObject({ id: json.id, text: 'Hello from n8n', chatid: TO_JID });
	});

	test('Options > Idempotency Key: items (and runs) with the same key send once; each gets that message', async () => {
		const input = ['order-7', 'order-7', 'order-8'].map((order) => ({ json: { order } }));
		const params = { operation: 'sendText', number: TO, text: 'keyed from n8n', options: { idempotencyKey: '=n8n-{{ $json.order }}' } };
		const first = await message(params, { input });
		expect(first.error).toBeUndefined();
		const ids = first.items.map((i) => i.json.id);
		expect(ids[1]).toBe(ids[0]);
		expect(ids[2]).not.toBe(ids[0]);
		// The whole run again (a run that died after its sends and was started again): nothing more sent.
		const again = await message(params, { input });
		expect(again.items.map((i) => i.json.id)).toEqual(ids);
		const device = storedDevice(server.services.store, 'shop')!;
		const rows = server.services.store.db.prepare("SELECT id FROM messages WHERE device_id = ? AND text = 'keyed from n8n'").all(device.id) as Array<{ id: string }>;
		expect(rows.map((r) => r.id).sort()).toEqual([ids[0], ids[2]].sort());
	});

	test('Request Options > Batching: each batch of items starts one interval after the one before', async () => {
		const numbers = ['5511977771001', '5511977771002', '5511977771003', '5511977771004'];
		const sent = await message(
			{ operation: 'sendText', number: '={{ $json.number }}', text: 'batched', requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 600 } } } },
			{ input: numbers.map((number) => ({ json: { number } })) },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items.map((i) => i.json.chatid)).toEqual(numbers.map((n) => `${n}@s.whatsapp.net`));
		// The server's clock: the second batch reached it about one interval after the first (the first
		// request also opened a connection: some slack). Without batching they arrive within a few ms.
		const at = sent.items.map((i) => i.json.messageTimestamp as number);
		expect(Math.min(at[2], at[3]) - Math.min(at[0], at[1])).toBeGreaterThanOrEqual(450);
	});

	test('placeholders fill the {{name}} markers; unknown markers stay as written', async () => {
		const sent = await message({
			operation: 'sendText',
			number: TO,
			text: 'Hi {{name}}, order {{order}} is ready. {{unknown}}',
			options: { placeholders: { values: [{ name: 'name', value: 'Ana' }, { name: 'order', value: '42' }] } },
		});
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json.text).toBe('Hi Ana, order 42 is ready. {{unknown}}');
		expect((await stored(sent.items[0].json.id as string)).text).toBe('Hi Ana, order 42 is ready. {{unknown}}');
	});

	test('link preview: automatic from the first link, or with custom fields', async () => {
		const auto = await message({ operation: 'sendText', number: TO, text: 'See https://shop.example.com/sale now', options: { linkPreview: true } });
		expect(auto.error).toBeUndefined();
		expect(auto.items[0].json.content).toEqual({
			linkPreview: { url: 'https://shop.example.com/sale', title: 'shop.example.com', description: '', image: null, large: false },
		});

		const custom = await message({
			operation: 'sendText',
			number: TO,
			text: 'https://shop.example.com/x',
			options: {
				linkPreview: true,
				linkPreviewTitle: 'Sale',
				linkPreviewDescription: 'Everything -50%',
				linkPreviewImage: 'https://shop.example.com/sale.png',
				linkPreviewLarge: true,
			},
		});
		expect(custom.error).toBeUndefined();
		const preview = { url: 'https://shop.example.com/x', title: 'Sale', description: 'Everything -50%', image: 'https://shop.example.com/sale.png', large: true };
		expect(custom.items[0].json.content).toEqual({ linkPreview: preview });
		expect((await stored(custom.items[0].json.id as string)).content).toEqual({ linkPreview: preview });

		const without = await message({ operation: 'sendText', number: TO, text: 'https://shop.example.com/none' });
		expect(without.items[0].json.content).toEqual({});
	});

	test('reply, mentions, forwarded flag and tracking fields are stored with the message', async () => {
		const first = await message({ operation: 'sendText', number: TO, text: 'first' });
		const firstId = first.items[0].json.id as string;
		const reply = await message({
			operation: 'sendText',
			number: TO,
			text: 'a reply',
			options: {
				replyid: firstId,
				mentions: '5511977770002, 5511977770003@s.whatsapp.net',
				forward: true,
				track_source: 'crm',
				track_id: 'order-42',
			},
		});
		expect(reply.error).toBeUndefined();
		const expected = {
			quoted: firstId,
			mentions: ['5511977770002@s.whatsapp.net', '5511977770003@s.whatsapp.net'],
			forwarded: true,
			track_source: 'crm',
			track_id: 'order-42',
		};
		expect(reply.items[0].json).toMatchObject(expected);
		expect(await stored(reply.items[0].json.id as string)).toMatchObject(expected);
	});

	test('Mark Messages Read reads the chat\'s received messages', async () => {
		const from = '5511977770009';
		const inbound = await sandbox.post('/devices/shop/inbound', { from, text: 'are you open?' }, { key: ADMIN_KEY });
		expect(inbound.status).toBe(200);
		expect((await stored(inbound.body.data.id)).status).toBe('delivered');
		const sent = await message({ operation: 'sendText', number: from, text: 'yes', options: { readmessages: true, readchat: true } });
		expect(sent.error).toBeUndefined();
		expect((await stored(inbound.body.data.id)).status).toBe('read');
		expect(server.services.store.chats.get(storedDevice(server.services.store, 'shop')!.id, `${from}@s.whatsapp.net`)?.unread).toBe(0);
	});

	test('async: answered as queued, then sent by the queue', async () => {
		const sent = await message({ operation: 'sendText', number: TO, text: 'later', options: { async: true, track_id: 'async-1' } });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ status: 'queued', text: 'later', track_id: 'async-1' });
		const id = sent.items[0].json.id as string;
		const after = await eventually(async () => {
			const row = await stored(id);
			return row.status !== 'queued' && row;
		});
		expect(['sent', 'delivered']).toContain(after.status);
	});

	test('delay: typing is shown meanwhile, and the answer comes once the message is sent', async () => {
		const number = '5511977770004';
		const started = Date.now();
		const running = message({ operation: 'sendText', number, text: 'after typing', options: { delay: 600 } });
		const typing = await eventually(async () => {
			const shown = await sandbox.get('/devices/shop/presence', { key: ADMIN_KEY });
			return shown.body.data.find((p: { chatid: string }) => p.chatid === `${number}@s.whatsapp.net`);
		});
		expect(typing).toMatchObject({ presence: 'composing' });
		const sent = await running;
		expect(Date.now() - started).toBeGreaterThanOrEqual(600);
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ status: 'sent', text: 'after typing' });
		// Sending ends the typing indicator.
		const shown = await sandbox.get('/devices/shop/presence', { key: ADMIN_KEY });
		expect(shown.body.data).toEqual([]);
	});

	test('one message per input item, in order, with expressions', async () => {
		const sent = await message(
			{ operation: 'sendText', number: '={{ $json.phone }}', text: '=Dear {{ $json.name }}', options: { track_id: '={{ $json.ref }}' } },
			{
				input: [
					{ json: { phone: '5511977770011', name: 'Ana', ref: 'r1' } },
					{ json: { phone: '5511977770012', name: 'Bo', ref: 'r2' } },
					{ json: { phone: '5511977770013', name: 'Cy', ref: 'r3' } },
				],
			},
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items.map((i) => [i.json.chatid, i.json.text, i.json.track_id])).toEqual([
			['5511977770011@s.whatsapp.net', 'Dear Ana', 'r1'],
			['5511977770012@s.whatsapp.net', 'Dear Bo', 'r2'],
			['5511977770013@s.whatsapp.net', 'Dear Cy', 'r3'],
		]);
		for (const item of sent.items) expect((await stored(item.json.id as string)).text).toBe(item.json.text);
	});
});

describe('sendMedia', () => {
	test('from an input binary property: the file arrives byte for byte', async () => {
		const sent = await message(
			{ operation: 'sendMedia', number: TO, type: 'image', source: 'binary', options: { text: 'Our logo, {{who}}', placeholders: { values: [{ name: 'who', value: 'Ana' }] } } },
			{ input: [fileItem(PNG, 'image/png', 'logo.png')] },
		);
		expect(sent.error).toBeUndefined();
		const json = sent.items[0].json;
		expect(json).toMatchObject({ messageType: 'image', mimetype: 'image/png', text: 'Our logo, Ana', content: { size: PNG.length } });
		const file = await download(json.fileURL as string);
		expect(file).toMatchObject({ status: 200, type: 'image/png' });
		expect(file.body.equals(PNG)).toBe(true);
	});

	test('a document keeps the input file name, from the chosen binary property', async () => {
		const sent = await message(
			{ operation: 'sendMedia', number: TO, type: 'document', source: 'binary', binaryPropertyName: 'attachment' },
			{ input: [fileItem(PDF, 'application/pdf', 'invoice 2026-01.pdf', 'attachment')] },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ messageType: 'document', mimetype: 'application/pdf', fileName: 'invoice 2026-01.pdf' });
		expect((await stored(sent.items[0].json.id as string)).fileName).toBe('invoice 2026-01.pdf');
		expect((await download(sent.items[0].json.fileURL as string)).body.equals(PDF)).toBe(true);
	});

	test('the File Name option wins over the input file name', async () => {
		const sent = await message(
			{ operation: 'sendMedia', number: TO, type: 'document', options: { docName: 'renamed.pdf' } },
			{ input: [fileItem(PDF, 'application/pdf', 'original.pdf')] },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json.fileName).toBe('renamed.pdf');
	});

	test('binary data whose MIME type has parameters (as an HTTP download gives it) is sent with the bare type', async () => {
		const sent = await message(
			{ operation: 'sendMedia', number: TO, type: 'document' },
			{ input: [fileItem(CSV, 'text/csv; charset=utf-8', 'stock.csv')] },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ mimetype: 'text/csv', fileName: 'stock.csv' });
		expect((await download(sent.items[0].json.fileURL as string)).body.equals(CSV)).toBe(true);
	});

	test('each input item sends its own file', async () => {
		const sent = await message(
			{ operation: 'sendMedia', number: TO, type: 'document' },
			{ input: [fileItem(PDF, 'application/pdf', 'a.pdf'), fileItem(CSV, 'text/csv', 'b.csv')] },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items.map((i) => [i.json.fileName, i.json.mimetype])).toEqual([
			['a.pdf', 'application/pdf'],
			['b.csv', 'text/csv'],
		]);
	});

	test('from a URL: the gateway downloads the file', async () => {
		const sent = await message({ operation: 'sendMedia', number: TO, type: 'image', source: 'url', fileUrl: `${files.url}/photo.png` });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ messageType: 'image', mimetype: 'image/png', fileName: 'photo.png' });
		expect((await download(sent.items[0].json.fileURL as string)).body.equals(PNG)).toBe(true);

		const doc = await message({ operation: 'sendMedia', number: TO, type: 'document', source: 'url', fileUrl: `${files.url}/files/price%20list.pdf` });
		expect(doc.error).toBeUndefined();
		expect(doc.items[0].json).toMatchObject({ messageType: 'document', mimetype: 'application/pdf', fileName: 'price list.pdf' });
	});

	test('from a URL that does not answer the file: 400 naming the field', async () => {
		const sent = await message({ operation: 'sendMedia', number: TO, type: 'image', source: 'url', fileUrl: `${files.url}/missing.png` });
		expect(sent.error).toMatchObject({ httpCode: '400', message: `file: could not fetch ${files.url}/missing.png` });
	});

	test('from Base64, plain or as a data URI', async () => {
		const plain = await message({
			operation: 'sendMedia',
			number: TO,
			type: 'image',
			source: 'base64',
			fileBase64: PNG.toString('base64'),
		});
		expect(plain.error).toBeUndefined();
		expect(plain.items[0].json).toMatchObject({ messageType: 'image', mimetype: 'image/png' });
		expect((await download(plain.items[0].json.fileURL as string)).body.equals(PNG)).toBe(true);

		const voice = await message({
			operation: 'sendMedia',
			number: TO,
			type: 'ptt',
			source: 'base64',
			fileBase64: `data:audio/ogg;base64,${OGG.toString('base64')}`,
		});
		expect(voice.error).toBeUndefined();
		expect(voice.items[0].json).toMatchObject({ messageType: 'ptt', mimetype: 'audio/ogg' });
		expect((await download(voice.items[0].json.fileURL as string)).body.equals(OGG)).toBe(true);
	});

	test('an input item without the binary property: the node says which property is missing', async () => {
		const sent = await message({ operation: 'sendMedia', number: TO, type: 'image' }, { input: [{ json: { no: 'file' } }] });
		expect(sent.items).toEqual([]);
		expect(sent.error).toMatchObject({
			message: 'The input item has no binary property "data"',
			description: 'Set Input Binary Field to the property that holds the file, or choose another File Source',
		});
	});

	test('a file that does not fit the type: 400', async () => {
		const sent = await message({ operation: 'sendMedia', number: TO, type: 'image' }, { input: [fileItem(PDF, 'application/pdf', 'x.pdf')] });
		expect(sent.error).toMatchObject({ httpCode: '400', message: 'file: an image message needs an image/* file (got application/pdf)' });
	});
});

describe('find', () => {
	let finder: Device;
	let finderHarness: N8nTestHarness;
	const CHAT_A = '5511966660001';
	const CHAT_B = '5511966660002';
	const find = (parameters: NodeParameters) => runNode(finderHarness, 'CUSTOM.wdmMessage', { operation: 'find', ...parameters });
	/** Every message of the finder device, newest first, as the server lists them. */
	let all: string[];

	beforeAll(async () => {
		finder = await connectedDevice(server, 'finder');
		finderHarness = instanceHarness(server, finder.token);
		// More than one page (the node asks for 100 at a time): 100 to chat A, 25 to chat B.
		for (let i = 0; i < 125; i++) {
			const number = i < 100 ? CHAT_A : CHAT_B;
			const sent = await api.post('/send/text', { number, text: `m${i}`, track_source: 'bulk', track_id: `t${i % 10}` }, { token: finder.token });
			expect(sent.status).toBe(200);
		}
		const listed = await api.post('/message/find', { limit: 1000 }, { token: finder.token });
		all = listed.body.data.messages.map((m: { id: string }) => m.id);
		expect(all).toHaveLength(125);
	});

	test('Return All pages through every message, newest first', async () => {
		const found = await find({ returnAll: true });
		expect(found.error).toBeUndefined();
		expect(found.items.map((i) => i.json.id)).toEqual(all);
		expect(found.items[0].json.text).toBe('m124');
		expect(found.items[124].json.text).toBe('m0');
	});

	test('Limit returns exactly that many, within one page or across pages', async () => {
		const seven = await find({ returnAll: false, limit: 7 });
		expect(seven.error).toBeUndefined();
		expect(seven.items.map((i) => i.json.id)).toEqual(all.slice(0, 7));

		const many = await find({ returnAll: false, limit: 110 });
		expect(many.error).toBeUndefined();
		expect(many.items.map((i) => i.json.id)).toEqual(all.slice(0, 110));

		const more = await find({ returnAll: false, limit: 500 });
		expect(more.items).toHaveLength(125);
	});

	test('the default is Limit 50', async () => {
		const found = await find({});
		expect(found.items.map((i) => i.json.id)).toEqual(all.slice(0, 50));
	});

	test('filters: chat (number or JID), tracking fields, message id', async () => {
		const byNumber = await find({ returnAll: true, filters: { chatid: CHAT_B } });
		expect(byNumber.error).toBeUndefined();
		expect(byNumber.items).toHaveLength(25);
		expect(new Set(byNumber.items.map((i) => i.json.chatid))).toEqual(new Set([`${CHAT_B}@s.whatsapp.net`]));

		const byJid = await find({ returnAll: true, filters: { chatid: `${CHAT_A}@s.whatsapp.net` } });
		expect(byJid.items).toHaveLength(100);

		const byTrack = await find({ returnAll: true, filters: { track_source: 'bulk', track_id: 't3' } });
		expect(byTrack.items.map((i) => i.json.text)).toEqual(['m123', 'm113', 'm103', 'm93', 'm83', 'm73', 'm63', 'm53', 'm43', 'm33', 'm23', 'm13', 'm3']);

		const both = await find({ returnAll: true, filters: { chatid: CHAT_B, track_id: 't3' } });
		expect(both.items.map((i) => i.json.text)).toEqual(['m123', 'm113', 'm103']);

		const one = await find({ filters: { id: all[5] } });
		expect(one.items.map((i) => i.json.id)).toEqual([all[5]]);

		const none = await find({ returnAll: true, filters: { track_id: 'nothing-like-this' } });
		expect(none.error).toBeUndefined();
		expect(none.items).toEqual([]);
	});

	test('messages of another device are not found', async () => {
		const found = await find({ returnAll: true, filters: { chatid: TO } });
		expect(found.items).toEqual([]);
	});
});

describe('download', () => {
	test('media of a sent message: binary output with its bytes, MIME type and file name; fileURL by default', async () => {
		const sent = await message({ operation: 'sendMedia', number: TO, type: 'document' }, { input: [fileItem(PDF, 'application/pdf', 'terms.pdf')] });
		const id = sent.items[0].json.id as string;
		const got = await message({ operation: 'download', id });
		expect(got.error).toBeUndefined();
		expect(got.items).toHaveLength(1);
		const { json, binary } = got.items[0];
		expect(json).toEqual({ id, mimetype: 'application/pdf', fileName: 'terms.pdf', size: PDF.length, fileURL: sent.items[0].json.fileURL });
		expect(binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: 'terms.pdf' });
		expect(Buffer.from(binary!.data.data, 'base64').equals(PDF)).toBe(true);
	});

	test('media a contact sent, by network message id, into the chosen property, without the link', async () => {
		const inbound = await sandbox.post(
			'/devices/shop/inbound',
			{ from: '5511977770020', type: 'image', file: `data:image/png;base64,${PNG.toString('base64')}`, fileName: 'selfie.png' },
			{ key: ADMIN_KEY },
		);
		expect(inbound.status).toBe(200);
		const got = await message({ operation: 'download', id: inbound.body.data.messageid, outputPropertyName: 'photo', options: { return_link: false } });
		expect(got.error).toBeUndefined();
		const { json, binary } = got.items[0];
		expect(json).toEqual({ id: inbound.body.data.id, mimetype: 'image/png', fileName: 'selfie.png', size: PNG.length });
		expect(Object.keys(binary ?? {})).toEqual(['photo']);
		expect(binary!.photo).toMatchObject({ mimeType: 'image/png', fileName: 'selfie.png' });
		expect(Buffer.from(binary!.photo.data, 'base64').equals(PNG)).toBe(true);
	});

	test('a text message has no media: 400', async () => {
		const sent = await message({ operation: 'sendText', number: TO, text: 'no file here' });
		const id = sent.items[0].json.id as string;
		const got = await message({ operation: 'download', id });
		expect(got.items).toEqual([]);
		expect(got.error).toMatchObject({ httpCode: '400', message: `id: message "${id}" has no media to download` });
	});

	test('an unknown message: 404', async () => {
		const got = await message({ operation: 'download', id: 'nope' });
		expect(got.error).toMatchObject({ httpCode: '404', message: 'id: no message with id "nope" on this device' });
	});

	test('Convert to MP3 on a server without a converter: 501 with the reason', async () => {
		const voice = await message({ operation: 'sendMedia', number: TO, type: 'ptt', source: 'base64', fileBase64: `data:audio/ogg;base64,${OGG.toString('base64')}` });
		const got = await message({ operation: 'download', id: voice.items[0].json.id as string, options: { generate_mp3: true } });
		expect(got.error).toMatchObject({ httpCode: '501' });
		expect(got.error?.message).toContain('generate_mp3');
	});
});

describe('setPresence', () => {
	const presence = async () => (await sandbox.get('/devices/shop/presence', { key: ADMIN_KEY })).body.data as Array<Record<string, unknown>>;
	const CHAT = '5511977770030';

	test('typing for a while: the device shows it until told to stop', async () => {
		const before = Date.now();
		const set = await message({ operation: 'setPresence', number: CHAT, presence: 'composing', delay: 60000 });
		expect(set.error).toBeUndefined();
		expect(set.items[0].json).toMatchObject({ number: `${CHAT}@s.whatsapp.net`, presence: 'composing' });
		const until = set.items[0].json.until as number;
		expect(until).toBeGreaterThanOrEqual(before + 60000);
		expect(await presence()).toEqual([expect.objectContaining({ chatid: `${CHAT}@s.whatsapp.net`, presence: 'composing', until })]);

		const recording = await message({ operation: 'setPresence', number: CHAT, presence: 'recording' });
		expect(recording.error).toBeUndefined();
		// The default duration is 30 s.
		expect(recording.items[0].json.until).toBeGreaterThanOrEqual(Date.now() + 29000);
		expect(await presence()).toEqual([expect.objectContaining({ chatid: `${CHAT}@s.whatsapp.net`, presence: 'recording' })]);

		const stop = await message({ operation: 'setPresence', number: CHAT, presence: 'paused' });
		expect(stop.error).toBeUndefined();
		expect(stop.items[0].json).toEqual({ number: `${CHAT}@s.whatsapp.net`, presence: 'paused', until: null });
		expect(await presence()).toEqual([]);
	});

	test('a duration over 5 minutes: 400 naming the field', async () => {
		const set = await message({ operation: 'setPresence', number: CHAT, presence: 'composing', delay: 300001 });
		expect(set.error).toMatchObject({ httpCode: '400', message: 'delay must be at most 300000' });
		expect(await presence()).toEqual([]);
	});
});

describe('errors', () => {
	test('a wrong instance token: 401 with the gateway\'s message', async () => {
		const sent = await runNode(instanceHarness(server, 'not-a-token'), 'CUSTOM.wdmMessage', { operation: 'sendText', number: TO, text: 'x' });
		expect(sent.items).toEqual([]);
		expect(sent.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'invalid instance token' });
	});

	test('a device that is not connected: 500 with the gateway\'s message', async () => {
		const created = await api.post('/devices', { name: 'idle' }, { key: ADMIN_KEY });
		const idle = instanceHarness(server, created.body.data.token);
		const reason = "device 'idle' is not connected (status: disconnected); pair it with a QR code first";
		const sent = await runNode(idle, 'CUSTOM.wdmMessage', { operation: 'sendText', number: TO, text: 'x' });
		expect(sent.error).toMatchObject({ httpCode: '500', message: reason });
		const media = await runNode(idle, 'CUSTOM.wdmMessage', { operation: 'sendMedia', number: TO, type: 'image', source: 'base64', fileBase64: PNG.toString('base64') });
		expect(media.error).toMatchObject({ httpCode: '500', message: reason });
		const typing = await runNode(idle, 'CUSTOM.wdmMessage', { operation: 'setPresence', number: TO, presence: 'composing' });
		expect(typing.error).toMatchObject({ httpCode: '500', message: reason });
		const found = await api.post('/message/find', {}, { token: created.body.data.token });
		expect(found.body.data.total).toBe(0);
	});

	test('a number that is not on the network: 500', async () => {
		expect((await sandbox.post('/numbers', { number: '5511900000000', onNetwork: false }, { key: ADMIN_KEY })).status).toBe(200);
		const sent = await message({ operation: 'sendText', number: '5511900000000', text: 'x' });
		expect(sent.error).toMatchObject({ httpCode: '500', message: '5511900000000 is not on the network' });
	});

	test('an invalid field: 400 with the message naming the field', async () => {
		const image = await message({ operation: 'sendText', number: TO, text: 'https://a.example.com', options: { linkPreviewImage: 'not a url' } });
		expect(image.error).toMatchObject({ httpCode: '400', message: 'linkPreviewImage must be a valid url' });

		const mime = await message({ operation: 'sendMedia', number: TO, type: 'document', source: 'base64', fileBase64: PDF.toString('base64'), options: { mimetype: 'pdf' } });
		expect(mime.error).toMatchObject({ httpCode: '400', message: 'mimetype must be a MIME type such as image/png' });

		const reply = await message({ operation: 'sendText', number: TO, text: 'x', options: { replyid: 'missing' } });
		expect(reply.error).toMatchObject({ httpCode: '400', message: 'replyid: no message with id "missing" on this device' });
	});

	test("onError 'continueRegularOutput': failed items become error items, the others go through", async () => {
		const sent = await message(
			{ operation: 'sendText', number: '={{ $json.phone }}', text: 'hello' },
			{ input: [{ json: { phone: TO } }, { json: { phone: '5511900000000' } }], onError: 'continueRegularOutput' },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items).toHaveLength(2);
		expect(sent.items[0].json).toMatchObject({ chatid: TO_JID, status: 'sent' });
		expect(sent.items[1].json).toEqual({ error: '5511900000000 is not on the network' });
		expect(sent.items[1].error).toMatchObject({ message: '5511900000000 is not on the network' });
	});
});
