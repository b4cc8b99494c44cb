import type { App } from '../../server/src/app';
import { ADMIN_KEY, eventually, findMessage, type Client, type Device } from '../helpers/server';
import { OGG, PDF, PNG, serveFiles, type FileServer } from '../helpers/files';
import { fileItem, gatewayWithDevice, instanceHarness, nodeRunner, runNode } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** WDM Message: Send Contact, Send Location, Send Status, Send Location Button, Request Payment, Send Pix Button. */

const TO = '5511955550001';
const TO_JID = `${TO}@s.whatsapp.net`;
const STATUS = 'status@broadcast';

let server: App;
let files: FileServer;
let shop: Device;
let harness: N8nTestHarness;
let api: Client;

const message = nodeRunner('CUSTOM.wdmMessage', () => harness);
const stored = (id: string) => findMessage(api, shop.token, id);

beforeAll(async () => {
	({ server, api, shop, harness } = await gatewayWithDevice('more-shop'));
	files = await serveFiles({ '/story.png': ['image/png', PNG], '/boleto.pdf': ['application/pdf', PDF] });
});
afterAll(async () => {
	await files.close();
	await server.close();
});

describe('sendContact', () => {
	test('the phone numbers list becomes one card with a TEL line per number', async () => {
		const sent = await message({
			operation: 'sendContact',
			number: TO,
			fullName: 'Ana Souza',
			phoneNumbers: ['+55 11 95555-0002', '5511955550003'],
			options: { organization: 'Acme', email: 'ana@example.com', url: 'https://acme.example.com', track_id: 'card-1', forward: true },
		});
		expect(sent.error).toBeUndefined();
		const json = sent.items[0].json;
		expect(json).toMatchObject({ chatid: TO_JID, messageType: 'contact', forwarded: true, track_id: 'card-1' });
		const back = await stored(json.id as string);
		expect(back.content.contact).toEqual({
			fullName: 'Ana Souza',
			phoneNumbers: ['5511955550002', '5511955550003'],
			organization: 'Acme',
			email: 'ana@example.com',
			url: 'https://acme.example.com',
		});
		expect(back.content.vcard.split('\r\n')).toEqual(
			expect.arrayContaining([
				'FN:Ana Souza',
				'ORG:Acme',
				'TEL;type=CELL;type=VOICE;waid=5511955550002:+5511955550002',
				'TEL;type=CELL;type=VOICE;waid=5511955550003:+5511955550003',
			]),
		);
	});

	test('an expression may give the numbers as one comma-separated string', async () => {
		const sent = await message(
			{ operation: 'sendContact', number: TO, fullName: '={{ $json.name }}', phoneNumbers: '={{ $json.phones }}' },
			{ input: [{ json: { name: 'Bo', phones: '5511955550004,5511955550005' } }] },
		);
		expect(sent.error).toBeUndefined();
		expect((await stored(sent.items[0].json.id as string)).content.contact.phoneNumbers).toEqual(['5511955550004', '5511955550005']);
	});

	test('a number that is not one: 400 naming the field', async () => {
		const sent = await message({ operation: 'sendContact', number: TO, fullName: 'X', phoneNumbers: ['12'] });
		expect(sent.items).toEqual([]);
		expect(sent.error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(sent.error?.message).toMatch(/^phoneNumber must be an international phone number/);
	});
});

describe('sendLocation', () => {
	test('latitude, longitude, place name and address, read back', async () => {
		const sent = await message({
			operation: 'sendLocation',
			number: TO,
			latitude: -23.5505199,
			longitude: -46.6333094,
			options: { name: 'Sé', address: 'Praça da Sé, São Paulo' },
		});
		expect(sent.error).toBeUndefined();
		const back = await stored(sent.items[0].json.id as string);
		expect(back).toMatchObject({
			messageType: 'location',
			content: { location: { latitude: -23.5505199, longitude: -46.6333094, name: 'Sé', address: 'Praça da Sé, São Paulo' } },
		});
	});

	test('out of range: 400 with the rule', async () => {
		const sent = await message({ operation: 'sendLocation', number: TO, latitude: 91, longitude: 0 });
		expect(sent.error).toMatchObject({ httpCode: '400', message: 'latitude must be at most 90' });
	});
});

describe('sendTextStatus and sendMediaStatus', () => {
	const feed = async () => (await api.post('/message/find', { chatid: STATUS }, { token: shop.token })).body.data.messages as Array<Record<string, any>>;

	test('a text status with colour and font, found in status@broadcast', async () => {
		const sent = await message({ operation: 'sendTextStatus', text: 'Sale today!', options: { background_color: 9, font: 3, track_id: 'st-1' } });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ chatid: STATUS, messageType: 'text', text: 'Sale today!', track_id: 'st-1' });
		const mine = (await feed()).find((m) => m.id === sent.items[0].json.id);
		expect(mine).toMatchObject({ fromMe: true, content: { background_color: 9, font: 3 } });
	});

	test('an image status from an input binary property, with a caption', async () => {
		const sent = await message({ operation: 'sendMediaStatus', statusType: 'image', options: { text: 'New in' } }, { input: [fileItem(PNG, 'image/png', 'new.png')] });
		expect(sent.error).toBeUndefined();
		const json = sent.items[0].json;
		expect(json).toMatchObject({ chatid: STATUS, messageType: 'image', text: 'New in', mimetype: 'image/png' });
		const file = await fetch(json.fileURL as string);
		expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
	});

	test('from a URL, and a voice note from Base64', async () => {
		const url = await message({ operation: 'sendMediaStatus', statusType: 'image', source: 'url', fileUrl: `${files.url}/story.png` });
		expect(url.error).toBeUndefined();
		expect(url.items[0].json).toMatchObject({ messageType: 'image', fileName: 'story.png' });
		const voice = await message({ operation: 'sendMediaStatus', statusType: 'ptt', source: 'base64', fileBase64: `data:audio/ogg;base64,${OGG.toString('base64')}` });
		expect(voice.error).toBeUndefined();
		expect(voice.items[0].json).toMatchObject({ messageType: 'ptt', mimetype: 'audio/ogg' });
		expect((await feed()).map((m) => m.id)).toEqual(expect.arrayContaining([url.items[0].json.id, voice.items[0].json.id]));
	});

	test('async: queued, then published', async () => {
		const sent = await message({ operation: 'sendTextStatus', text: 'later', options: { async: true } });
		expect(sent.items[0].json.status).toBe('queued');
		await eventually(async () => (await stored(sent.items[0].json.id as string)).status !== 'queued');
	});

	test('a text too long: 400; a file that does not fit the type: 400', async () => {
		const long = await message({ operation: 'sendTextStatus', text: 'x'.repeat(657) });
		expect(long.error).toMatchObject({ httpCode: '400', message: 'text must be at most 656 characters long for a text status' });
		const wrong = await message({ operation: 'sendMediaStatus', statusType: 'video' }, { input: [fileItem(PNG, 'image/png', 'x.png')] });
		expect(wrong.error).toMatchObject({ httpCode: '400', message: 'file: a video message needs a video/* file (got image/png)' });
	});
});

describe('sendLocationButton', () => {
	test('the text with the button the gateway adds', async () => {
		const sent = await message({ operation: 'sendLocationButton', number: TO, text: 'Where are you?', options: { mentions: TO } });
		expect(sent.error).toBeUndefined();
		const back = await stored(sent.items[0].json.id as string);
		expect(back).toMatchObject({ messageType: 'locationButton', text: 'Where are you?', mentions: [TO_JID], content: { button: { type: 'send_location' } } });
	});
});

describe('requestPayment', () => {
	test('Pix, bank slip, link and an attachment; the methods are in the content', async () => {
		const sent = await message({
			operation: 'requestPayment',
			number: TO,
			amount: 99.9,
			options: {
				title: 'Order 7',
				paymentText: 'Please pay',
				itemName: 'Sneakers',
				invoiceNumber: 'INV-7',
				pixType: 'CNPJ',
				pixKey: '11.222.333/0001-81',
				pixName: 'Acme',
				paymentLink: 'https://pay.example.com/7',
				boletoCode: '23793381286000782713695000063305975520000370000',
				fileUrl: `${files.url}/boleto.pdf`,
				fileName: 'boleto-7.pdf',
			},
		});
		expect(sent.error).toBeUndefined();
		const back = await stored(sent.items[0].json.id as string);
		expect(back).toMatchObject({ messageType: 'requestPayment', text: 'Please pay', fileName: 'boleto-7.pdf', mimetype: 'application/pdf' });
		expect(back.content.payment).toMatchObject({
			amount: 99.9,
			currency: 'BRL',
			title: 'Order 7',
			methods: ['pix', 'boleto', 'link'],
			pix: { type: 'CNPJ', key: '11222333000181', name: 'Acme' },
			link: 'https://pay.example.com/7',
		});
	});

	test('amount 0: 400; a Pix key that does not fit its type: 400', async () => {
		const zero = await message({ operation: 'requestPayment', number: TO, amount: 0 });
		expect(zero.error).toMatchObject({ httpCode: '400', message: 'amount must be greater than 0' });
		const badKey = await message({ operation: 'requestPayment', number: TO, amount: 5, options: { pixType: 'CPF', pixKey: '123' } });
		expect(badKey.error).toMatchObject({ httpCode: '400', message: 'pixKey must be a CPF: 11 digits with valid check digits, as pixType is CPF (got "123")' });
	});
});

describe('sendPixButton', () => {
	test('the key is checked and stored; the receiver name defaults to Pix', async () => {
		const sent = await message({ operation: 'sendPixButton', number: TO, pixType: 'CPF', pixKey: '529.982.247-25', options: { track_source: 'billing' } });
		expect(sent.error).toBeUndefined();
		const back = await stored(sent.items[0].json.id as string);
		expect(back).toMatchObject({ messageType: 'pixButton', track_source: 'billing', content: { pix: { type: 'CPF', key: '52998224725', name: 'Pix' } } });
	});

	test('continue on error: each item gets its result or its error', async () => {
		const sent = await message(
			{ operation: 'sendPixButton', number: TO, pixType: 'EMAIL', pixKey: '={{ $json.key }}', options: { pixName: 'Acme' } },
			{
				onError: 'continueRegularOutput',
				input: [{ json: { key: 'pay@acme.example.com' } }, { json: { key: 'not an email' } }],
			},
		);
		expect(sent.items).toHaveLength(2);
		expect(sent.items[0].json).toMatchObject({ messageType: 'pixButton', content: { pix: { key: 'pay@acme.example.com', name: 'Acme' } } });
		expect(sent.items[1].json.error).toBe('pixKey must be an email address, as pixType is EMAIL (got "not an email")');
	});
});

describe('errors shared by the new operations', () => {
	const operations: Array<[string, Record<string, unknown>]> = [
		['sendContact', { number: TO, fullName: 'X', phoneNumbers: ['5511955550009'] }],
		['sendLocation', { number: TO, latitude: 1, longitude: 1 }],
		['sendTextStatus', { text: 'x' }],
		['sendMediaStatus', { source: 'url', fileUrl: 'http://127.0.0.1:1/none.png' }],
		['sendLocationButton', { number: TO, text: 'x' }],
		['requestPayment', { number: TO, amount: 1 }],
		['sendPixButton', { number: TO, pixType: 'EVP', pixKey: '123e4567-e89b-12d3-a456-426614174000' }],
	];

	test.each(operations)('%s: wrong token 401, device not connected 500', async (operation, parameters) => {
		const denied = await runNode(instanceHarness(server, 'not-a-token'), 'CUSTOM.wdmMessage', { operation, ...parameters });
		expect(denied.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'invalid instance token' });

		const name = `idle-${operation.toLowerCase()}`;
		const created = await api.post('/devices', { name }, { key: ADMIN_KEY });
		const idle = instanceHarness(server, created.body.data.token);
		const refused = await runNode(idle, 'CUSTOM.wdmMessage', { operation, ...parameters });
		expect(refused.error).toMatchObject({ httpCode: '500', message: `device '${name}' is not connected (status: disconnected); pair it with a QR code first` });
	});
});
