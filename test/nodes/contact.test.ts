import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, type Client, type Device } from '../helpers/server';
import { gatewayWithDevice, instanceHarness, jidOf, nodeRunner, runNode } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** Every operation of WDM Contact, run by n8n's engine against a live server, with the state read back. */

let server: App;
let shop: Device;
let peer: Device;
let harness: N8nTestHarness;
let api: Client;
let sandbox: Client;

const contact = nodeRunner('CUSTOM.wdmContact', () => harness);

let seq = 0;
const number = () => `55215${String(++seq).padStart(8, '0')}`;
/** The contacts as the server lists them. */
const saved = async (token = shop.token) => (await api.get('/contacts', { token })).body.data as { jid: string; name: string }[];

beforeAll(async () => {
	({ server, api, sandbox, shop, harness } = await gatewayWithDevice('shop'));
	peer = await connectedDevice(server, 'peer');
});
afterAll(() => server.close());

describe('Add, Remove, Get Many, List', () => {
	const ana = number();
	test('Add saves (and renames) a contact; Remove takes it off', async () => {
		const added = await contact({ operation: 'add', phone: `+${ana}`, name: 'Ana' });
		expect(added.error).toBeUndefined();
		expect(added.items[0].json).toMatchObject({ jid: jidOf(ana), phone: ana, name: 'Ana', created: true });
		expect(await saved()).toEqual([expect.objectContaining({ jid: jidOf(ana), name: 'Ana' })]);

		const renamed = await contact({ operation: 'add', phone: jidOf(ana), name: 'Ana Souza' });
		expect(renamed.items[0].json).toMatchObject({ jid: jidOf(ana), name: 'Ana Souza', created: false });
		expect((await saved()).map((c) => c.name)).toEqual(['Ana Souza']);

		const removed = await contact({ operation: 'remove', phone: ana });
		expect(removed.items[0].json).toMatchObject({ jid: jidOf(ana), removed: true });
		expect(await saved()).toEqual([]);
		const again = await contact({ operation: 'remove', phone: ana });
		expect(again.error).toMatchObject({ httpCode: '404', message: `phone: ${jidOf(ana)} is not a saved contact of this device` });
	});

	test('Add from input items, one request each; a bad item is an error item', async () => {
		const [a, b] = [number(), number()];
		const run = await contact(
			{ operation: 'add', phone: '={{ $json.phone }}', name: '={{ $json.name }}' },
			{
				input: [{ json: { phone: a, name: 'Bia' } }, { json: { phone: 'not a number', name: 'X' } }, { json: { phone: b, name: 'Caio' } }],
				onError: 'continueRegularOutput',
			},
		);
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.name ?? i.json.error)).toEqual([
			'Bia',
			'phone must be an international phone number of 8 to 15 digits, country code first (got "not a number")',
			'Caio',
		]);
		expect((await saved()).map((c) => c.name)).toEqual(['Bia', 'Caio']);
	});

	test('Get Many returns every contact (or up to Limit); List pages through them', async () => {
		const h = instanceHarness(server, peer.token);
		const names = Array.from({ length: 130 }, (_, i) => `Contact ${String(i).padStart(3, '0')}`);
		for (const name of names) expect((await api.post('/contact/add', { phone: number(), name }, { token: peer.token })).status).toBe(200);

		const all = await runNode(h, 'CUSTOM.wdmContact', { operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.name)).toEqual(names);
		expect((await runNode(h, 'CUSTOM.wdmContact', { operation: 'getAll', limit: 3 })).items.map((i) => i.json.name)).toEqual(names.slice(0, 3));

		const listed = await runNode(h, 'CUSTOM.wdmContact', { operation: 'list', returnAll: true });
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((i) => i.json.name)).toEqual(names);
		const limited = await runNode(h, 'CUSTOM.wdmContact', { operation: 'list', limit: 105 });
		expect(limited.items.map((i) => i.json.name)).toEqual(names.slice(0, 105));
		expect((await runNode(h, 'CUSTOM.wdmContact', { operation: 'list' })).items).toHaveLength(50);
	});
});

describe('Get Chat Details, Check Numbers', () => {
	test('Get Chat Details merges the contact with its chat', async () => {
		const carla = number();
		await sandbox.post('/numbers', { number: carla, onNetwork: true, name: 'Carla (profile)' }, { key: ADMIN_KEY });
		await sandbox.post(`/devices/${shop.name}/inbound`, { from: carla, text: 'hi' }, { key: ADMIN_KEY });
		await api.post('/contact/add', { phone: carla, name: 'Carla Dias' }, { token: shop.token });
		const run = await contact({ operation: 'getChatDetails', number: carla });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({
			jid: jidOf(carla),
			name: 'Carla Dias',
			contactName: 'Carla Dias',
			profileName: 'Carla (profile)',
			isInWhatsapp: true,
			hasChat: true,
			wa_chatid: jidOf(carla),
			wa_unreadCount: 1,
		});
		const group = await contact({ operation: 'getChatDetails', number: '120363000000000404@g.us' });
		expect(group.error).toMatchObject({ httpCode: '404', message: 'number: group 120363000000000404@g.us is not known to this device' });
	});

	test('Check Numbers: one item per number, typed in or mapped from the input (one value, a list or an array)', async () => {
		const absent = number();
		await sandbox.post('/numbers', { number: absent, onNetwork: false }, { key: ADMIN_KEY });
		const typed = await contact({
			operation: 'checkNumbers',
			numbers: { values: [{ number: peer.phone }, { number: absent }, { number: 'oops' }] },
		});
		expect(typed.error).toBeUndefined();
		expect(typed.items.map((i) => i.json)).toEqual([
			{ query: peer.phone, jid: peer.jid, isInWhatsapp: true, isGroup: false, name: 'peer', verifiedName: 'peer' },
			{ query: absent, jid: jidOf(absent), isInWhatsapp: false, isGroup: false, name: null, verifiedName: null },
			expect.objectContaining({ query: 'oops', jid: null, isInWhatsapp: false, error: expect.stringMatching(/^numbers\[2\] must be/) }),
		]);

		const other = number();
		const mapped = await contact(
			{ operation: 'checkNumbers', numbers: { values: [{ number: '={{ $json.phones }}' }, { number: '={{ $json.one }}' }] } },
			{ input: [{ json: { phones: [peer.phone, absent], one: `${other}, ${jidOf(other)}` } }] },
		);
		expect(mapped.error).toBeUndefined();
		expect(mapped.items.map((i) => [i.json.jid, i.json.isInWhatsapp])).toEqual([
			[peer.jid, true],
			[jidOf(absent), false],
			[jidOf(other), true],
			[jidOf(other), true],
		]);

		const none = await contact({ operation: 'checkNumbers', numbers: {} });
		expect(none.error).toMatchObject({ httpCode: '400', message: 'numbers must have at least 1 items' });
	});

	test('a device that is not connected: the gateway refusal as a 500 node error', async () => {
		const out = await connectedDevice(server, 'out');
		await api.post(`/devices/${out.name}/logout`, {}, { key: ADMIN_KEY });
		const h = instanceHarness(server, out.token);
		const run = await runNode(h, 'CUSTOM.wdmContact', { operation: 'checkNumbers', numbers: { values: [{ number: peer.phone }] } });
		expect(run.error).toMatchObject({ httpCode: '500', message: "device 'out' is not connected (status: disconnected); pair it with a QR code first" });
		const add = await runNode(h, 'CUSTOM.wdmContact', { operation: 'add', phone: peer.phone, name: 'Peer' });
		expect(add.error).toMatchObject({ httpCode: '500' });
		expect(await saved(out.token)).toEqual([]);
	});
});
