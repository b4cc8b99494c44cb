import { ADMIN_KEY, connectedDevice, eventually, expectError, findMessage, startGateway, type Client, type Device } from '../helpers/server';
import { PDF, serveFiles, type FileServer } from '../helpers/files';
import type { App } from '../../server/src/app';

/** POST /send/request-payment and /send/pix-button, read back through /message/find. */

const CONTACT = '5511977770101';
/** A bank-slip line code (47 digits) as banks print it. */
const BOLETO = '23793.38128 60007.827136 95000.063305 9 75520000370000';
const BOLETO_DIGITS = BOLETO.replace(/\D/g, '');

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;
let files: FileServer;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	dev = await connectedDevice(server, 'biller');
	files = await serveFiles({ '/slips/boleto-42.pdf': ['application/pdf', PDF] });
});
afterAll(async () => {
	await files.close();
	await server.close();
});

const post = (route: string, body: unknown, token = dev.token) => api.post(route, body, { token });

const findOne = (id: string, token = dev.token) => findMessage(api, token, id);

describe('POST /send/request-payment', () => {
	test('every method: Pix key, bank slip and link, with an attached PDF; content shows the enabled methods', async () => {
		const res = await post('/send/request-payment', {
			number: CONTACT,
			amount: 149.9,
			title: 'Order #42',
			text: 'Thanks for your order!',
			footer: 'Acme Store',
			itemName: 'Blue sneakers',
			invoiceNumber: 'INV-42',
			pixKey: '529.982.247-25',
			pixType: 'CPF',
			pixName: 'Acme Ltda',
			paymentLink: 'https://pay.example.com/checkout/42',
			fileUrl: `${files.url}/slips/boleto-42.pdf`,
			fileName: 'boleto 42.pdf',
			boletoCode: BOLETO,
			track_id: 'order-42',
		});
		expect(res.status).toBe(200);
		const payment = {
			amount: 149.9,
			currency: 'BRL',
			title: 'Order #42',
			footer: 'Acme Store',
			itemName: 'Blue sneakers',
			invoiceNumber: 'INV-42',
			methods: ['pix', 'boleto', 'link'],
			pix: { type: 'CPF', key: '52998224725', name: 'Acme Ltda' },
			boleto: { code: BOLETO_DIGITS },
			link: 'https://pay.example.com/checkout/42',
		};
		expect(res.body.data).toMatchObject({
			messageType: 'requestPayment',
			text: 'Thanks for your order!',
			mimetype: 'application/pdf',
			fileName: 'boleto 42.pdf',
			track_id: 'order-42',
			content: { payment },
		});
		expect(BOLETO_DIGITS).toHaveLength(47);
		const stored = await findOne(res.body.data.id);
		expect(stored.content).toEqual({ payment });
		// The attachment is stored with the message and can be downloaded.
		const download = await post('/message/download', { id: stored.id, return_base64: true });
		expect(download.body.data).toMatchObject({ mimetype: 'application/pdf', fileName: 'boleto 42.pdf', size: PDF.length });
		expect(Buffer.from(download.body.data.base64Data, 'base64').equals(PDF)).toBe(true);
	});

	test('just an amount: BRL, no methods; another currency can be named', async () => {
		const plain = await post('/send/request-payment', { number: CONTACT, amount: 10 });
		expect(plain.status).toBe(200);
		expect(plain.body.data).toMatchObject({ text: null, fileURL: null });
		expect(plain.body.data.content.payment).toEqual({
			amount: 10,
			currency: 'BRL',
			title: null,
			footer: null,
			itemName: null,
			invoiceNumber: null,
			methods: [],
			pix: null,
			boleto: null,
			link: null,
		});
		const usd = await post('/send/request-payment', { number: CONTACT, amount: 0.5, currency: 'USD', paymentLink: 'https://pay.example.com/x' });
		expect(usd.body.data.content.payment).toMatchObject({ amount: 0.5, currency: 'USD', methods: ['link'] });
	});

	test('a bank-slip code alone enables the bank-slip method; a Pix key gets the default receiver name', async () => {
		const slip = await post('/send/request-payment', { number: CONTACT, amount: 370, boletoCode: BOLETO_DIGITS });
		expect(slip.body.data.content.payment).toMatchObject({ methods: ['boleto'], boleto: { code: BOLETO_DIGITS }, pix: null });
		const pix = await post('/send/request-payment', { number: CONTACT, amount: 5, pixType: 'EMAIL', pixKey: 'pay@acme.example.com' });
		expect(pix.body.data.content.payment).toMatchObject({ methods: ['pix'], pix: { type: 'EMAIL', key: 'pay@acme.example.com', name: 'Pix' } });
	});

	test('async, delay, reply and read flags as in /send/text', async () => {
		const from = '5511977770102';
		const inbound = (await sandbox.post('/devices/biller/inbound', { from, text: 'how do I pay?' }, { key: ADMIN_KEY })).body.data;
		const res = await post('/send/request-payment', { number: from, amount: 20, replyid: inbound.id, readmessages: true, async: true, delay: 200 });
		expect(res.body.data).toMatchObject({ status: 'queued', quoted: inbound.id, messageType: 'requestPayment' });
		const sent = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status !== 'queued' && m;
		});
		expect(sent.content.payment.amount).toBe(20);
		expect((await findOne(inbound.id)).status).toBe('read');
	});

	test('field rules', async () => {
		const base = { number: CONTACT, amount: 10 };
		const total = async () => (await api.post('/message/find', { chatid: CONTACT, limit: 1 }, { token: dev.token })).body.data.total;
		const before = await total();
		expectError(await post('/send/request-payment', {}), 400, 'number is required; amount is required');
		expectError(await post('/send/request-payment', { ...base, amount: 0 }), 400, 'amount must be greater than 0');
		expectError(await post('/send/request-payment', { ...base, amount: -5 }), 400, 'amount must be greater than 0');
		expectError(await post('/send/request-payment', { ...base, amount: '10' }), 400, 'amount must be a number (got string "10")');
		expectError(await post('/send/request-payment', { ...base, currency: 'real' }), 400, 'currency must be a three-letter currency code such as BRL');
		expectError(await post('/send/request-payment', { ...base, paymentLink: 'pay here' }), 400, 'paymentLink must be an http(s) URL');
		expectError(await post('/send/request-payment', { ...base, fileUrl: 'file:///etc/passwd' }), 400, 'fileUrl must be an http(s) URL');
		expectError(await post('/send/request-payment', { ...base, pixType: 'IBAN', pixKey: 'x' }), 400, /^pixType must be one of: "CPF", "CNPJ", "PHONE", "EMAIL", "EVP"/);
		expectError(await post('/send/request-payment', { ...base, pixKey: '52998224725' }), 400, 'pixType is required with pixKey');
		expectError(await post('/send/request-payment', { ...base, pixType: 'CPF', pixName: 'Acme' }), 400, 'pixKey is required with pixType; pixName applies only with pixKey');
		expectError(await post('/send/request-payment', { ...base, pixName: 'Acme', fileName: 'a.pdf' }), 400, 'pixName applies only with pixKey; fileName applies only with fileUrl');
		expectError(await post('/send/request-payment', { ...base, pixType: 'CPF', pixKey: '529.982.247-26' }), 400, 'pixKey must be a CPF: 11 digits with valid check digits, as pixType is CPF (got "529.982.247-26")');
		expectError(await post('/send/request-payment', { ...base, boletoCode: '1234' }), 400, 'boletoCode must be a bank-slip line code of 47 or 48 digits (got "1234")');
		expectError(await post('/send/request-payment', { ...base, fileUrl: `${files.url}/missing.pdf` }), 400, `fileUrl: could not fetch ${files.url}/missing.pdf`);
		// Fields the route does not list.
		expectError(await post('/send/request-payment', { ...base, forward: true }), 400, 'body has unknown field(s): forward');
		expectError(await post('/send/request-payment', { ...base, placeholders: {} }), 400, 'body has unknown field(s): placeholders');
		// Nothing was stored by the refused requests.
		expect(await total()).toBe(before);
	});
});

describe('POST /send/pix-button', () => {
	const pixButton = (body: Record<string, unknown>, token?: string) => post('/send/pix-button', { number: CONTACT, ...body }, token);

	test.each([
		['CPF', '529.982.247-25', '52998224725'],
		['CNPJ', '11.222.333/0001-81', '11222333000181'],
		['CNPJ', '11222333000181', '11222333000181'],
		['PHONE', '+55 (11) 97777-0101', '+5511977770101'],
		['EMAIL', 'pix@acme.example.com', 'pix@acme.example.com'],
		['EVP', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
	])('%s key %s is stored as %s', async (pixType, pixKey, stored) => {
		const res = await pixButton({ pixType, pixKey, pixName: 'Acme Ltda' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ messageType: 'pixButton', text: null, content: { pix: { type: pixType, key: stored, name: 'Acme Ltda' } } });
		expect((await findOne(res.body.data.id)).content).toEqual({ pix: { type: pixType, key: stored, name: 'Acme Ltda' } });
	});

	test('the receiver name defaults to Pix', async () => {
		const res = await pixButton({ pixType: 'EVP', pixKey: '123e4567-e89b-12d3-a456-426614174000' });
		expect(res.body.data.content.pix.name).toBe('Pix');
	});

	test.each([
		['CPF', '529.982.247-26', 'a CPF: 11 digits with valid check digits'],
		['CPF', '111.111.111-11', 'a CPF: 11 digits with valid check digits'],
		['CPF', '5299822472', 'a CPF: 11 digits with valid check digits'],
		['CNPJ', '11.222.333/0001-82', 'a CNPJ: 14 digits with valid check digits'],
		['CNPJ', '52998224725', 'a CNPJ: 14 digits with valid check digits'],
		['PHONE', '12345', 'a phone number in international format: 8 to 15 digits, country code first'],
		['PHONE', 'pix@acme.example.com', 'a phone number in international format: 8 to 15 digits, country code first'],
		['EMAIL', 'acme.example.com', 'an email address'],
		['EVP', '123e4567e89b12d3a456426614174000', 'a random key (EVP): a UUID such as 123e4567-e89b-12d3-a456-426614174000'],
	])('%s key %s is refused', async (pixType, pixKey, rule) => {
		expectError(await pixButton({ pixType, pixKey }), 400, `pixKey must be ${rule}, as pixType is ${pixType} (got "${pixKey}")`);
	});

	test('field rules and the fields the route does not list', async () => {
		expectError(await post('/send/pix-button', {}), 400, /^number is required; pixType is required; pixKey is required$/);
		expectError(await pixButton({ pixType: 'cpf', pixKey: '52998224725' }), 400, /^pixType must be one of: "CPF"/);
		expectError(await pixButton({ pixType: 'CPF', pixKey: 52998224725 }), 400, 'pixKey must be a string (got number 52998224725)');
		expectError(await pixButton({ pixType: 'CPF', pixKey: '52998224725', forward: true, text: 'x' }), 400, 'body has unknown field(s): forward, text');
		expectError(await pixButton({ pixType: 'CPF', pixKey: '52998224725', replyid: 'nope' }), 400, 'replyid: no message with id "nope" on this device');
	});

	test('delivered to another device of the server with its key', async () => {
		const peer = await connectedDevice(server, 'payer');
		const res = await post('/send/pix-button', { number: peer.phone, pixType: 'CNPJ', pixKey: '11.222.333/0001-81' });
		const received = await findOne(res.body.data.messageid, peer.token);
		expect(received).toMatchObject({ fromMe: false, messageType: 'pixButton', content: { pix: { type: 'CNPJ', key: '11222333000181', name: 'Pix' } } });
	});
});

describe('errors common to the payment routes', () => {
	const bodies: Record<string, Record<string, unknown>> = {
		'/send/request-payment': { number: CONTACT, amount: 1 },
		'/send/pix-button': { number: CONTACT, pixType: 'CPF', pixKey: '52998224725' },
	};

	test.each(Object.keys(bodies))('%s: bad token 401, not connected 500, absent number 500, status feed 400', async (route) => {
		const body = bodies[route];
		expectError(await api.post(route, body, { token: 'wrong' }), 401, 'invalid instance token');
		const idle = await api.post('/devices', { name: `idle${route.replace(/\W/g, '-')}` }, { key: ADMIN_KEY });
		expectError(await post(route, body, idle.body.data.token), 500, /is not connected \(status: disconnected\)/);
		expectError(await post(route, { ...body, delay: 2000 }, idle.body.data.token), 500, /is not connected/);
		const absent = '5511977770199';
		await sandbox.post('/numbers', { number: absent, onNetwork: false }, { key: ADMIN_KEY });
		expectError(await post(route, { ...body, number: absent, async: true }), 500, `${absent} is not on the network`);
		expectError(await post(route, { ...body, number: 'status@broadcast' }), 400, /^number: status@broadcast is the device's status feed/);
	});
});
