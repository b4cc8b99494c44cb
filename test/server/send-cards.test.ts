import { ADMIN_KEY, connectedDevice, eventually, expectError, findMessage, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import type { App } from '../../server/src/app';

/** POST /send/contact, /send/location and /send/location-button, read back through /message/find. */

const CONTACT = '5511988880001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	dev = await connectedDevice(server, 'cards');
});
afterAll(() => server.close());

const post = (route: string, body: unknown, token = dev.token) => api.post(route, body, { token });

const findOne = (id: string, token = dev.token) => findMessage(api, token, id);

describe('POST /send/contact', () => {
	test('builds a vCard 3.0 with one TEL line (and waid) per number, stored with the message', async () => {
		const res = await post('/send/contact', {
			number: CONTACT,
			fullName: 'Ana Souza',
			phoneNumber: '+55 (11) 98888-0002, 5511988880003@s.whatsapp.net,',
			organization: 'Acme; Filial Sul',
			email: 'ana@example.com',
			url: 'https://acme.example.com/ana',
		});
		expect(res.status).toBe(200);
		const m = res.body.data;
		expect(m).toMatchObject({ chatid: CONTACT_JID, fromMe: true, messageType: 'contact', text: null, status: 'sent', wasSentByApi: true });
		const vcard = [
			'BEGIN:VCARD',
			'VERSION:3.0',
			'N:;Ana Souza;;;',
			'FN:Ana Souza',
			'ORG:Acme\\; Filial Sul',
			'TEL;type=CELL;type=VOICE;waid=5511988880002:+5511988880002',
			'TEL;type=CELL;type=VOICE;waid=5511988880003:+5511988880003',
			'EMAIL;type=INTERNET:ana@example.com',
			'URL:https://acme.example.com/ana',
			'END:VCARD',
		].join('\r\n');
		const content = {
			contact: {
				fullName: 'Ana Souza',
				phoneNumbers: ['5511988880002', '5511988880003'],
				organization: 'Acme; Filial Sul',
				email: 'ana@example.com',
				url: 'https://acme.example.com/ana',
			},
			vcard,
		};
		expect(m.content).toEqual(content);
		expect((await findOne(m.id)).content).toEqual(content);
		// The chat shows the contact card as its last message.
		const chat = server.services.store.chats.get(storedDevice(server.services.store, 'cards')!.id, CONTACT_JID)!;
		expect(chat.last_msg_type).toBe('contact');
	});

	test('only the required fields: a minimal card; repeated numbers are listed once', async () => {
		const res = await post('/send/contact', { number: CONTACT, fullName: '  Bo  ', phoneNumber: '5511988880004,5511988880004' });
		expect(res.status).toBe(200);
		expect(res.body.data.content).toEqual({
			contact: { fullName: 'Bo', phoneNumbers: ['5511988880004'], organization: null, email: null, url: null },
			vcard: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Bo;;;\r\nFN:Bo\r\nTEL;type=CELL;type=VOICE;waid=5511988880004:+5511988880004\r\nEND:VCARD',
		});
	});

	test('escapes commas, backslashes and line breaks, and folds long lines at 75 octets', async () => {
		const name = `Dr. Silva, João \\ Filho\n${'ç'.repeat(60)}`;
		const res = await post('/send/contact', { number: CONTACT, fullName: name, phoneNumber: '5511988880005' });
		expect(res.status).toBe(200);
		const vcard: string = res.body.data.content.vcard;
		const lines = vcard.split('\r\n');
		for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
		// Unfolding (RFC 2425: drop CRLF + one space) gives back the escaped value, whole characters only.
		const unfolded = vcard.replace(/\r\n /g, '');
		const escaped = `Dr. Silva\\, João \\\\ Filho\\n${'ç'.repeat(60)}`;
		expect(unfolded.split('\r\n')).toContain(`FN:${escaped}`);
		expect(unfolded.split('\r\n')).toContain(`N:;${escaped};;;`);
		expect(vcard).not.toContain('\uFFFD');
	});

	test('the card reaches another device of the server, which sees the contact', async () => {
		const other = await connectedDevice(server, 'cards-peer');
		const res = await post('/send/contact', { number: other.phone, fullName: 'Carla', phoneNumber: '5511988880006', track_id: 'peer-card' });
		expect(res.status).toBe(200);
		const found = await api.post('/message/find', { chatid: dev.jid }, { token: other.token });
		expect(found.body.data.total).toBe(1);
		const received = found.body.data.messages[0];
		expect(received).toMatchObject({
			messageid: res.body.data.messageid,
			chatid: dev.jid,
			sender: dev.jid,
			fromMe: false,
			messageType: 'contact',
			status: 'delivered',
			track_id: null,
			content: res.body.data.content,
		});
		expect(received.content.vcard).toContain('waid=5511988880006:+5511988880006');
	});

	test('common fields: reply, mentions, forward, tracking, read flags', async () => {
		const from = '5511988880010';
		const inbound = (await sandbox.post('/devices/cards/inbound', { from, text: 'send me their number' }, { key: ADMIN_KEY })).body.data;
		const res = await post('/send/contact', {
			number: from,
			fullName: 'Dan',
			phoneNumber: '5511988880011',
			replyid: inbound.id,
			mentions: '5511988880012',
			forward: true,
			track_source: 'crm',
			track_id: 'card-1',
			readmessages: true,
			readchat: true,
		});
		expect(res.status).toBe(200);
		expect(await findOne(res.body.data.id)).toMatchObject({
			quoted: inbound.id,
			mentions: ['5511988880012@s.whatsapp.net'],
			forwarded: true,
			track_source: 'crm',
			track_id: 'card-1',
		});
		expect((await findOne(inbound.id)).status).toBe('read');
	});

	test('async: answered queued, then sent by the queue with its card', async () => {
		const res = await post('/send/contact', { number: CONTACT, fullName: 'Queued', phoneNumber: '5511988880013', async: true, delay: 150 });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ status: 'queued', messageType: 'contact' });
		const sent = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status !== 'queued' && m;
		});
		expect(['sent', 'delivered']).toContain(sent.status);
		expect(sent.content.vcard).toContain('FN:Queued');
	});

	test('field rules', async () => {
		const base = { number: CONTACT, fullName: 'X', phoneNumber: '5511988880014' };
		expectError(await post('/send/contact', {}), 400, 'number is required; fullName is required; phoneNumber is required');
		expectError(await post('/send/contact', { ...base, fullName: '   ' }), 400, 'fullName must be at least 1 characters long');
		expectError(await post('/send/contact', { ...base, phoneNumber: ' , ,' }), 400, 'phoneNumber must hold at least one phone number (separate several with commas)');
		expectError(
			await post('/send/contact', { ...base, phoneNumber: '5511988880014, 123' }),
			400,
			/^phoneNumber must be an international phone number of 8 to 15 digits.*\(got "123"\)$/,
		);
		expectError(await post('/send/contact', { ...base, phoneNumber: '120363012345678901@g.us' }), 400, /^phoneNumber must be a phone number or a user JID, not a group/);
		expectError(await post('/send/contact', { ...base, phoneNumber: '123456789012@lid' }), 400, 'phoneNumber must be a phone number, not a @lid id (got "123456789012@lid")');
		expectError(await post('/send/contact', { ...base, phoneNumber: ['5511988880014'] }), 400, 'phoneNumber must be a string (got an array)');
		expectError(await post('/send/contact', { ...base, email: 'not-an-email' }), 400, 'email must be an email address');
		expectError(await post('/send/contact', { ...base, url: 'ftp://files.example.com' }), 400, 'url must be an http(s) URL');
		// Fields the route does not list.
		expectError(await post('/send/contact', { ...base, placeholders: { a: 'b' } }), 400, 'body has unknown field(s): placeholders');
		expectError(await post('/send/contact', { ...base, text: 'hi' }), 400, 'body has unknown field(s): text');
		expectError(await post('/send/contact', { ...base, delay: 300001 }), 400, 'delay must be at most 300000');
	});
});

describe('POST /send/location', () => {
	test('stores latitude, longitude, name and address', async () => {
		const res = await post('/send/location', {
			number: CONTACT,
			latitude: -23.55052,
			longitude: -46.633308,
			name: 'Praça da Sé',
			address: 'Praça da Sé, São Paulo - SP',
			track_id: 'loc-1',
		});
		expect(res.status).toBe(200);
		const location = { latitude: -23.55052, longitude: -46.633308, name: 'Praça da Sé', address: 'Praça da Sé, São Paulo - SP' };
		expect(res.body.data).toMatchObject({ messageType: 'location', text: null, track_id: 'loc-1', content: { location } });
		expect((await findOne(res.body.data.id)).content).toEqual({ location });
	});

	test('the limits themselves are accepted; name and address are optional', async () => {
		for (const [latitude, longitude] of [[90, 180], [-90, -180], [0, 0]]) {
			const res = await post('/send/location', { number: CONTACT, latitude, longitude });
			expect(res.status).toBe(200);
			expect(res.body.data.content).toEqual({ location: { latitude, longitude, name: null, address: null } });
		}
	});

	test('reaches another device of the server', async () => {
		const peer = await connectedDevice(server, 'loc-peer');
		const res = await post('/send/location', { number: peer.jid, latitude: 1.5, longitude: 2.5, name: 'Here' });
		const received = (await api.post('/message/find', { id: res.body.data.messageid }, { token: peer.token })).body.data.messages[0];
		expect(received).toMatchObject({ fromMe: false, messageType: 'location', content: { location: { latitude: 1.5, longitude: 2.5, name: 'Here', address: null } } });
	});

	test('field rules', async () => {
		const base = { number: CONTACT, latitude: 10, longitude: 20 };
		expectError(await post('/send/location', { number: CONTACT }), 400, 'latitude is required; longitude is required');
		expectError(await post('/send/location', { ...base, latitude: 90.0001 }), 400, 'latitude must be at most 90');
		expectError(await post('/send/location', { ...base, latitude: -91 }), 400, 'latitude must be at least -90');
		expectError(await post('/send/location', { ...base, longitude: 180.5 }), 400, 'longitude must be at most 180');
		expectError(await post('/send/location', { ...base, longitude: -181 }), 400, 'longitude must be at least -180');
		expectError(await post('/send/location', { ...base, latitude: '10' }), 400, 'latitude must be a number (got string "10")');
		expectError(await post('/send/location', { ...base, name: 5 }), 400, 'name must be a string (got number 5)');
		expectError(await post('/send/location', { ...base, placeholders: {} }), 400, 'body has unknown field(s): placeholders');
		expectError(await post('/send/location', { ...base, replyid: 'nope' }), 400, 'replyid: no message with id "nope" on this device');
	});
});

describe('POST /send/location-button', () => {
	test('a text with the location-request button, shown in content', async () => {
		const res = await post('/send/location-button', { number: CONTACT, text: 'Where should we deliver?', mentions: [CONTACT] });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			messageType: 'locationButton',
			text: 'Where should we deliver?',
			mentions: [CONTACT_JID],
			content: { button: { type: 'send_location', text: 'Send location' } },
		});
		expect((await findOne(res.body.data.id)).content).toEqual({ button: { type: 'send_location', text: 'Send location' } });
	});

	test('delay shows typing first, then sends', async () => {
		const number = '5511988880020';
		const started = Date.now();
		const pending = post('/send/location-button', { number, text: 'Share your location', delay: 300 });
		const shown = await eventually(async () => {
			const res = await sandbox.get('/devices/cards/presence', { key: ADMIN_KEY });
			return res.body.data.find((p: { chatid: string }) => p.chatid === `${number}@s.whatsapp.net`);
		});
		expect(shown.presence).toBe('composing');
		const res = await pending;
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(res.body.data).toMatchObject({ status: 'sent', messageType: 'locationButton' });
	});

	test('field rules', async () => {
		expectError(await post('/send/location-button', { number: CONTACT }), 400, 'text is required');
		expectError(await post('/send/location-button', { number: CONTACT, text: '' }), 400, 'text must be at least 1 characters long');
		expectError(await post('/send/location-button', { number: CONTACT, text: 'x', buttonText: 'Go' }), 400, 'body has unknown field(s): buttonText');
		expectError(await post('/send/location-button', { number: CONTACT, text: 'x', async: 'yes' }), 400, 'async must be a boolean (got string "yes")');
	});
});

describe('errors common to the card routes', () => {
	const bodies: Record<string, Record<string, unknown>> = {
		'/send/contact': { number: CONTACT, fullName: 'X', phoneNumber: '5511988880030' },
		'/send/location': { number: CONTACT, latitude: 1, longitude: 1 },
		'/send/location-button': { number: CONTACT, text: 'x' },
	};

	test.each(Object.keys(bodies))('%s: bad token 401, not connected 500, absent number 500, bad number 400', async (route) => {
		const body = bodies[route];
		expectError(await api.post(route, body, { token: 'wrong' }), 401, 'invalid instance token');
		expectError(await api.post(route, body), 401, /^missing instance token/);

		const idle = await api.post('/devices', { name: `idle${route.replace(/\W/g, '-')}` }, { key: ADMIN_KEY });
		expectError(await post(route, body, idle.body.data.token), 500, /is not connected \(status: disconnected\)/);
		expectError(await post(route, { ...body, async: true }, idle.body.data.token), 500, /is not connected/);

		const absent = '5511988880099';
		await sandbox.post('/numbers', { number: absent, onNetwork: false }, { key: ADMIN_KEY });
		expectError(await post(route, { ...body, number: absent }), 500, `${absent} is not on the network`);
		expectError(await post(route, { ...body, number: '12' }), 400, /^number must be an international phone number/);
		expectError(await post(route, { ...body, number: 'status@broadcast' }), 400, /^number: status@broadcast is the device's status feed/);
		expectError(await post(route, { ...body, replyid: 'nope' }), 400, 'replyid: no message with id "nope" on this device');
		expectError(await post(route, { ...body, unexpected: 1 }), 400, 'body has unknown field(s): unexpected');
	});
});
