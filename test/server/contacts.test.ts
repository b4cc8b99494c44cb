import { ADMIN_KEY, expectError, gatewaySuite, type SubscribedDevice as Device, storedDevice } from '../helpers/server';

/** GET /contacts, /contacts/list, /contact/add, /contact/remove, /chat/details and /chat/check. */

const suite = gatewaySuite();
const { device } = suite;


let seq = 0;
const number = () => `55218${String(++seq).padStart(8, '0')}`;
const jidOf = (phone: string) => `${phone}@s.whatsapp.net`;

const add = (d: Device, body: unknown) => suite.api.post('/contact/add', body, { token: d.token });
const remove = (d: Device, body: unknown) => suite.api.post('/contact/remove', body, { token: d.token });
const list = (d: Device, body: unknown) => suite.api.post('/contacts/list', body, { token: d.token });
const contacts = async (d: Device) => {
	const res = await suite.api.get('/contacts', { token: d.token });
	expect(res.status).toBe(200);
	return res.body.data;
};
const details = (d: Device, number: string) => suite.api.post('/chat/details', { number }, { token: d.token });
const check = (d: Device, numbers: unknown) => suite.api.post('/chat/check', { numbers }, { token: d.token });
const sb = (route: string, body: unknown) => suite.sandbox.post(route, body, { key: ADMIN_KEY });

describe('contacts: add, list, remove', () => {
	let d: Device;
	beforeAll(async () => {
		d = await device('book');
	});

	test('add normalises the number to its JID; GET /contacts lists them by name; each add is an event', async () => {
		expect(await contacts(d)).toEqual([]);
		const zoe = number();
		const bob = number();
		const added = await add(d, { phone: `+${zoe.slice(0, 2)} ${zoe.slice(2, 4)} ${zoe.slice(4, 9)}-${zoe.slice(9)}`, name: ' Zoe Ramos ' });
		expect(added.status).toBe(200);
		expect(added.body.data).toEqual({
			jid: jidOf(zoe),
			phone: zoe,
			name: 'Zoe Ramos',
			createdAt: expect.any(Number),
			updatedAt: expect.any(Number),
			created: true,
		});
		expect((await add(d, { phone: jidOf(bob), name: 'bob' })).body.data).toMatchObject({ jid: jidOf(bob), name: 'bob', created: true });
		const listed = await contacts(d);
		expect(listed.map((c: { name: string }) => c.name)).toEqual(['bob', 'Zoe Ramos']);
		const { created: _created, ...zoeView } = added.body.data;
		expect(listed[1]).toEqual(zoeView);
		expect(d.events('contacts')).toEqual([
			{ action: 'add', contact: zoeView },
			{ action: 'add', contact: listed[0] },
		]);
	});

	test('adding a saved number again renames it (an update event); the same name changes nothing', async () => {
		const ana = number();
		const first = (await add(d, { phone: ana, name: 'Ana' })).body.data;
		const renamed = await add(d, { phone: jidOf(ana), name: 'Ana Souza' });
		expect(renamed.body.data).toMatchObject({ jid: jidOf(ana), name: 'Ana Souza', created: false, createdAt: first.createdAt });
		expect(renamed.body.data.updatedAt).toBeGreaterThanOrEqual(first.updatedAt);
		expect(d.events('contacts').at(-1)).toEqual({ action: 'update', contact: expect.objectContaining({ jid: jidOf(ana), name: 'Ana Souza' }) });
		const events = d.events('contacts').length;
		expect((await add(d, { phone: ana, name: 'Ana Souza' })).body.data.created).toBe(false);
		expect(d.events('contacts')).toHaveLength(events);
		expect((await contacts(d)).filter((c: { jid: string }) => c.jid === jidOf(ana))).toHaveLength(1);
	});

	test('remove takes the contact off (an event); an unknown one is a 404', async () => {
		const gone = number();
		await add(d, { phone: gone, name: 'Temp' });
		const removed = await remove(d, { phone: jidOf(gone) });
		expect(removed.status).toBe(200);
		expect(removed.body.data).toMatchObject({ jid: jidOf(gone), name: 'Temp', removed: true });
		expect((await contacts(d)).some((c: { jid: string }) => c.jid === jidOf(gone))).toBe(false);
		expect(d.events('contacts').at(-1)).toEqual({ action: 'remove', contact: expect.objectContaining({ jid: jidOf(gone), name: 'Temp' }) });
		expectError(await remove(d, { phone: gone }), 404, `phone: ${jidOf(gone)} is not a saved contact of this device`);
	});

	test('bad input is a 400 naming the field', async () => {
		const cases: [unknown, string | RegExp][] = [
			[{ name: 'x' }, 'phone is required'],
			[{ phone: number() }, 'name is required'],
			[{ phone: number(), name: '   ' }, 'name must be at least 1 characters long'],
			[{ phone: number(), name: 'x'.repeat(101) }, 'name must be at most 100 characters long'],
			[{ phone: 'abc', name: 'x' }, /^phone must be an international phone number of 8 to 15 digits/],
			[{ phone: '120363000000000009@g.us', name: 'x' }, 'phone must be a phone number or a user JID, not a group (got "120363000000000009@g.us")'],
			[{ phone: number(), name: 'x', email: 'a@b.c' }, 'body has unknown field(s): email'],
		];
		for (const [body, message] of cases) expectError(await add(d, body), 400, message);
		expectError(await remove(d, {}), 400, 'phone is required');
		expectError(await remove(d, { phone: '12' }), 400, /^phone must be an international phone number/);
	});
});

describe('POST /contacts/list', () => {
	let d: Device;
	const names = ['Ada', 'bea', 'Caio', 'Duda', 'Eva', 'fabio', 'Gil'];

	beforeAll(async () => {
		d = await device('pages');
		for (const name of [...names].reverse()) expect((await add(d, { phone: number(), name })).status).toBe(200);
	});
	const namesOf = (res: { body: any }) => res.body.data.contacts.map((c: { name: string }) => c.name);

	test('defaults: page 1 of 50, by name', async () => {
		const res = await list(d, {});
		expect(res.status).toBe(200);
		expect(namesOf(res)).toEqual(names);
		expect(res.body.data).toMatchObject({ total: 7, page: 1, pageSize: 50, limit: 50, offset: 0, totalPages: 1, hasMore: false, nextOffset: null });
		expect(res.body.data.contacts).toEqual(await contacts(d));
		expect(namesOf(await suite.api.post('/contacts/list', undefined, { token: d.token }))).toEqual(names);
	});

	test('page and pageSize', async () => {
		const page2 = await list(d, { page: 2, pageSize: 3 });
		expect(namesOf(page2)).toEqual(['Duda', 'Eva', 'fabio']);
		expect(page2.body.data).toMatchObject({ total: 7, page: 2, pageSize: 3, limit: 3, offset: 3, totalPages: 3, hasMore: true, nextOffset: 6 });
		const page3 = await list(d, { page: 3, pageSize: 3 });
		expect(namesOf(page3)).toEqual(['Gil']);
		expect(page3.body.data).toMatchObject({ page: 3, offset: 6, hasMore: false, nextOffset: null });
		const past = await list(d, { page: 9, pageSize: 3 });
		expect(past.body.data).toMatchObject({ contacts: [], total: 7, page: 9, offset: 24, hasMore: false, nextOffset: null });
	});

	test('limit and offset (limit is pageSize by another name)', async () => {
		const res = await list(d, { limit: 2, offset: 1 });
		expect(namesOf(res)).toEqual(['bea', 'Caio']);
		expect(res.body.data).toMatchObject({ total: 7, limit: 2, pageSize: 2, offset: 1, page: 1, hasMore: true, nextOffset: 3 });
		expect(namesOf(await list(d, { offset: 5 }))).toEqual(['fabio', 'Gil']);
		expect(namesOf(await list(d, { limit: 2, pageSize: 2, page: 2 }))).toEqual(['Caio', 'Duda']);
		const exact = await list(d, { limit: 7 });
		expect(exact.body.data).toMatchObject({ hasMore: false, nextOffset: null, totalPages: 1 });
	});

	test('bad paging is a 400 naming the field', async () => {
		const cases: [unknown, string][] = [
			[{ page: 0 }, 'page must be at least 1'],
			[{ pageSize: 0 }, 'pageSize must be at least 1'],
			[{ pageSize: 1001 }, 'pageSize must be at most 1000'],
			[{ limit: 1001 }, 'limit must be at most 1000'],
			[{ offset: -1 }, 'offset must be at least 0'],
			[{ page: '2' }, 'page must be a number (got string "2")'],
			[{ page: 1.5 }, 'page must be an integer (got number 1.5)'],
			[{ pageSize: 10, limit: 20 }, 'limit is another name for pageSize: give one of them (got pageSize 10 and limit 20)'],
			[{ page: 2, offset: 10 }, 'give page or offset, not both'],
			[{ search: 'a' }, 'body has unknown field(s): search'],
		];
		for (const [body, message] of cases) expectError(await list(d, body), 400, message);
	});
});

describe('POST /chat/details', () => {
	let d: Device;
	let peer: Device;
	beforeAll(async () => {
		d = await device('details');
		peer = await device('details-peer');
	});

	test('a saved contact with a chat: names, network presence and the chat state in one answer', async () => {
		const ana = number();
		await sb('/numbers', { number: ana, onNetwork: true, name: 'Ana (profile)' });
		await sb(`/devices/${d.name}/inbound`, { from: ana, text: 'hi' });
		await add(d, { phone: ana, name: 'Ana Souza' });
		await suite.api.post('/chat/pin', { number: ana, pin: true }, { token: d.token });
		const res = await details(d, jidOf(ana));
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			id: expect.any(String),
			wa_chatid: jidOf(ana),
			wa_name: 'Ana (profile)',
			phone: ana,
			wa_isGroup: false,
			wa_isPinned: true,
			wa_archived: false,
			wa_muteEndTime: 0,
			wa_unreadCount: 1,
			wa_lastMsgTimestamp: expect.any(Number),
			wa_lastMessageType: 'text',
			wa_label: [],
			jid: jidOf(ana),
			isGroup: false,
			name: 'Ana Souza',
			contactName: 'Ana Souza',
			profileName: 'Ana (profile)',
			verifiedName: null,
			isInWhatsapp: true,
			isMe: false,
			hasChat: true,
		});
		const chat = (await suite.api.post('/chat/find', { wa_chatid: jidOf(ana) }, { token: d.token })).body.data.chats[0];
		expect(res.body.data).toMatchObject(chat);
	});

	test('a device of this server: its profile name, verified as a business; a number with no chat shows the empty chat', async () => {
		const res = await details(d, peer.phone);
		expect(res.body.data).toMatchObject({
			id: null,
			wa_chatid: peer.jid,
			wa_name: '',
			phone: peer.phone,
			wa_unreadCount: 0,
			wa_lastMsgTimestamp: 0,
			wa_label: [],
			jid: peer.jid,
			name: 'details-peer',
			contactName: null,
			profileName: 'details-peer',
			verifiedName: 'details-peer',
			isInWhatsapp: true,
			hasChat: false,
		});
		expect((await details(d, d.phone)).body.data).toMatchObject({ isMe: true, profileName: 'details' });
	});

	test('an absent number is not on the network; an unknown one is, with no names', async () => {
		const absent = number();
		await sb('/numbers', { number: absent, onNetwork: false, name: 'Gone' });
		expect((await details(d, absent)).body.data).toMatchObject({ isInWhatsapp: false, profileName: null, name: absent, hasChat: false });
		const unknown = number();
		expect((await details(d, unknown)).body.data).toMatchObject({ isInWhatsapp: true, profileName: null, contactName: null, name: unknown });
	});

	test('a group: its details (participants when the device takes part) with its chat', async () => {
		const created = await suite.api.post('/group/create', { name: 'Team', participants: [peer.phone] }, { token: d.token });
		expect(created.status).toBe(200);
		const jid = created.body.data.jid;
		const res = await details(d, jid);
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ wa_chatid: jid, wa_isGroup: true, phone: '', jid, isGroup: true, name: 'Team', isInWhatsapp: true, isMember: true });
		expect(res.body.data.group).toMatchObject({ jid, name: 'Team', size: 2 });
		expect(res.body.data.group.participants.map((p: { phone: string }) => p.phone).sort()).toEqual([d.phone, peer.phone].sort());

		const outsider = await device('details-outsider');
		const seen = await details(outsider, jid);
		expect(seen.body.data).toMatchObject({ id: null, isInWhatsapp: true, isMember: false, hasChat: false, name: 'Team' });
		expect(seen.body.data.group).not.toHaveProperty('participants');
	});

	test('a group the network does not know: the chat record only, or a 404', async () => {
		const dev = storedDevice(suite.server.services.store, d.name)!;
		const old = '120363000000000777@g.us';
		suite.server.services.store.chats.create(dev.id, { chatid: old, name: 'Old group', isGroup: true });
		expect((await details(d, old)).body.data).toMatchObject({ wa_chatid: old, name: 'Old group', isInWhatsapp: false, group: null, hasChat: true });
		expectError(await details(d, '120363000000000888@g.us'), 404, 'number: group 120363000000000888@g.us is not known to this device');
	});

	test('bad input is a 400', async () => {
		expectError(await suite.api.post('/chat/details', {}, { token: d.token }), 400, 'number is required');
		expectError(await details(d, 'x'), 400, /^number must be an international phone number/);
		// The status feed is no contact.
		expectError(await details(d, 'status@broadcast'), 400, 'number must be a phone number, a user JID or a group JID (got "status@broadcast")');
		expectError(await suite.api.post('/chat/details', { number: 5511 }, { token: d.token }), 400, 'number must be a string (got number 5511)');
		expectError(await suite.api.post('/chat/details', { number: d.phone, extra: 1 }, { token: d.token }), 400, 'body has unknown field(s): extra');
	});
});

describe('POST /chat/check', () => {
	let d: Device;
	let peer: Device;
	beforeAll(async () => {
		d = await device('checker');
		peer = await device('checker-peer');
	});

	test('answers each entry in order: on the network or not, with the names the network shows; malformed entries say why', async () => {
		const absent = number();
		const named = number();
		const unknown = number();
		await sb('/numbers', { number: absent, onNetwork: false });
		await sb('/numbers', { number: named, onNetwork: true, name: 'Named Person' });
		const group = (await suite.api.post('/group/create', { name: 'Checkers', participants: [peer.phone] }, { token: d.token })).body.data.jid;
		const res = await check(d, [peer.phone, absent, named, Number(unknown), `+${unknown.slice(0, 2)} (${unknown.slice(2, 4)}) ${unknown.slice(4)}`, jidOf(named), 'abc', group, '120363000000000999@g.us', 'x@g.us', unknown, 'status@broadcast']);
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([
			{ query: peer.phone, jid: peer.jid, isInWhatsapp: true, isGroup: false, name: 'checker-peer', verifiedName: 'checker-peer' },
			{ query: absent, jid: jidOf(absent), isInWhatsapp: false, isGroup: false, name: null, verifiedName: null },
			{ query: named, jid: jidOf(named), isInWhatsapp: true, isGroup: false, name: 'Named Person', verifiedName: null },
			{ query: Number(unknown), jid: jidOf(unknown), isInWhatsapp: true, isGroup: false, name: null, verifiedName: null },
			expect.objectContaining({ jid: jidOf(unknown), isInWhatsapp: true }),
			{ query: jidOf(named), jid: jidOf(named), isInWhatsapp: true, isGroup: false, name: 'Named Person', verifiedName: null },
			{
				query: 'abc',
				jid: null,
				isInWhatsapp: false,
				isGroup: false,
				name: null,
				verifiedName: null,
				error: 'numbers[6] must be an international phone number of 8 to 15 digits, country code first (got "abc")',
			},
			{ query: group, jid: group, isInWhatsapp: true, isGroup: true, name: 'Checkers', verifiedName: null },
			{ query: '120363000000000999@g.us', jid: '120363000000000999@g.us', isInWhatsapp: false, isGroup: true, name: null, verifiedName: null },
			expect.objectContaining({ query: 'x@g.us', jid: null, isInWhatsapp: false, error: expect.stringMatching(/^numbers\[9\] must be a phone number or a JID/) }),
			{ query: unknown, jid: jidOf(unknown), isInWhatsapp: true, isGroup: false, name: null, verifiedName: null },
			expect.objectContaining({ jid: null, error: 'numbers[11] must be a phone number, a user JID or a group JID (got "status@broadcast")' }),
		]);
	});

	test('takes 1 to 500 entries of text or numbers', async () => {
		expect((await check(d, Array.from({ length: 500 }, () => number()))).body.data).toHaveLength(500);
		expectError(await check(d, []), 400, 'numbers must have at least 1 items');
		expectError(await check(d, Array(501).fill('5511999990001')), 400, 'numbers must have at most 500 items');
		expectError(await check(d, '5511999990001'), 400, 'numbers must be an array (got string "5511999990001")');
		expectError(await check(d, ['5511999990001', { n: 1 }]), 400, 'numbers[1] must be a number or JID, as text');
		expectError(await suite.api.post('/chat/check', {}, { token: d.token }), 400, 'numbers is required');
	});
});

describe('connection, tokens and other devices', () => {
	test('changes and checks need a connected device (500); reading does not', async () => {
		const out = await device('contacts-out');
		const saved = number();
		await add(out, { phone: saved, name: 'Kept' });
		expect((await suite.api.post(`/devices/${out.name}/logout`, {}, { key: ADMIN_KEY })).status).toBe(200);
		const refusal = `device '${out.name}' is not connected (status: disconnected); pair it with a QR code first`;
		expectError(await add(out, { phone: number(), name: 'x' }), 500, refusal);
		expectError(await remove(out, { phone: saved }), 500, refusal);
		expectError(await check(out, [saved]), 500, refusal);
		expect((await contacts(out)).map((c: { name: string }) => c.name)).toEqual(['Kept']);
		expect((await list(out, {})).body.data.total).toBe(1);
		expect((await details(out, saved)).body.data).toMatchObject({ contactName: 'Kept' });
	});

	test('a missing or wrong token is a 401; another device has its own contacts', async () => {
		const mine = await device('contacts-mine');
		const theirs = await device('contacts-theirs');
		const phone = number();
		await add(mine, { phone, name: 'Only mine' });
		const calls: [string, string, unknown][] = [
			['GET', '/contacts', undefined],
			['POST', '/contacts/list', {}],
			['POST', '/contact/add', { phone, name: 'x' }],
			['POST', '/contact/remove', { phone }],
			['POST', '/chat/details', { number: phone }],
			['POST', '/chat/check', { numbers: [phone] }],
		];
		for (const [method, route, body] of calls) {
			expectError(await suite.api.call(method, route, body), 401, /^missing instance token/);
			expectError(await suite.api.call(method, route, body, { token: 'not-a-token' }), 401, 'invalid instance token');
			expectError(await suite.api.call(method, route, body, { key: ADMIN_KEY }), 401, /^missing instance token/);
		}
		expect(await contacts(theirs)).toEqual([]);
		expect((await list(theirs, {})).body.data.total).toBe(0);
		expectError(await remove(theirs, { phone }), 404, `phone: ${jidOf(phone)} is not a saved contact of this device`);
		expect((await details(theirs, phone)).body.data.contactName).toBeNull();
		expect((await contacts(mine)).map((c: { name: string }) => c.name)).toEqual(['Only mine']);
	});
});
