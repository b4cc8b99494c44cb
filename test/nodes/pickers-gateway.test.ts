import type { INodeProperties } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { connectedDevice, pairedDevice, type Client, type Device } from '../helpers/server';
import { gatewayWithDevice, jidOf, NODE_TYPES, nodeRunner, userHarness } from '../helpers/nodes';
import { locatorValue, pickedEntry, type N8nTestHarness } from '../helpers/n8n';

/**
 * The gateway nodes' pickers (resource locators), run as n8n's editor runs them: each list search
 * through n8n's LoadOptionsContext against the live server, then the picked value (From List, By ID)
 * through a real operation that must succeed.
 */

let server: App;
let api: Client;
let shop: Device;
let harness: N8nTestHarness;
let users: N8nTestHarness;

const message = nodeRunner('CUSTOM.wdmMessage', () => harness);
const label = nodeRunner('CUSTOM.wdmLabel', () => harness);
const group = nodeRunner('CUSTOM.wdmGroup', () => harness);
const contact = nodeRunner('CUSTOM.wdmContact', () => harness);
const community = nodeRunner('CUSTOM.wdmCommunity', () => harness);
const device = nodeRunner('CUSTOM.wdmDevice', () => users);
const sendAndWait = nodeRunner('CUSTOM.wdmSendAndWait', () => users);

/** The value the editor stores when a list entry is picked. */
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** A node's property by name. */
const property = (type: string, name: string) => NODE_TYPES[type].description.properties.find((p) => p.name === name) as INodeProperties;

/** 55 chats (more than a page of the chat picker): one text to each number, all from one node run. */
const NUMBERS = Array.from({ length: 55 }, (_, i) => `55119300${String(i).padStart(5, '0')}`);

beforeAll(async () => {
	({ server, api, shop, harness } = await gatewayWithDevice('shop'));
	users = userHarness(server);
	await connectedDevice(server, 'backup');
	const sent = await message({ operation: 'sendText', number: '={{ $json.number }}', text: 'hello' }, { input: NUMBERS.map((number) => ({ json: { number } })) });
	expect(sent.error).toBeUndefined();
	for (const name of ['Book club', 'Runners']) {
		const res = await api.post('/group/create', { name, participants: [NUMBERS[0]] }, { token: shop.token });
		expect(res.status).toBe(200);
	}
	for (const [phone, name] of [[NUMBERS[1], 'Ana Lima'], [NUMBERS[2], 'Bruno Reis']]) {
		expect((await api.post('/contact/add', { phone, name }, { token: shop.token })).status).toBe(200);
	}
});
afterAll(() => server.close());

test('every picker of every node names a list search the node has', () => {
	const missing: string[] = [];
	const visit = (node: string, methods: Record<string, unknown>, p: INodeProperties) => {
		for (const mode of p.modes ?? []) {
			const method = mode.typeOptions?.searchListMethod;
			if (method && typeof methods[method] !== 'function') missing.push(`${node}.${p.name}: ${method}`);
		}
		for (const option of (p.options ?? []) as Array<{ type?: string; values?: INodeProperties[] }>) {
			(option.values ?? (option.type ? [option as INodeProperties] : [])).forEach((o) => visit(node, methods, o));
		}
	};
	let pickers = 0;
	for (const [type, node] of Object.entries(NODE_TYPES)) {
		for (const p of node.description.properties) {
			if (p.type === 'resourceLocator') pickers++;
			visit(type, node.methods?.listSearch ?? {}, p);
		}
	}
	expect(missing).toEqual([]);
	expect(pickers).toBeGreaterThanOrEqual(10);
});

describe('device (WDM Device, WDM Trigger; user credential)', () => {
	test('lists the devices by name; the filter narrows by name', async () => {
		const all = await users.listSearch('CUSTOM.wdmDevice', 'searchDevice');
		expect(all.results).toEqual(expect.arrayContaining([{ name: 'shop', value: 'shop' }, { name: 'backup', value: 'backup' }]));
		const some = await users.listSearch('CUSTOM.wdmTrigger', 'searchDevice', { filter: 'BACK' });
		expect(some.results.map((r) => r.value)).toEqual(['backup']);
	});

	test('a device picked before it paired still reads true once paired: its name holds no status (the editor keeps the name picked)', async () => {
		const created = await device({ operation: 'create', name: 'fresh' });
		expect(created.error).toBeUndefined();
		const [before] = (await users.listSearch('CUSTOM.wdmDevice', 'searchDevice', { filter: 'fresh' })).results;
		const picked = pickedEntry(before);
		expect((await device({ operation: 'getStatus', device: picked })).items[0].json).toMatchObject({ name: 'fresh', status: 'disconnected' });

		await pairedDevice(server, 'fresh');
		expect((await device({ operation: 'getStatus', device: picked })).items[0].json).toMatchObject({ name: 'fresh', status: 'connected' });
		// What the field shows (the name stored when picked) is what the list says now.
		const [after] = (await users.listSearch('CUSTOM.wdmDevice', 'searchDevice', { filter: 'fresh' })).results;
		expect(picked.cachedResultName).toBe(after.name);
	});

	test('a picked device, and one typed by name, are the device of the operation', async () => {
		const picked = await device({ operation: 'getStatus', device: fromList('backup') });
		expect(picked.error).toBeUndefined();
		expect(picked.items[0].json).toMatchObject({ name: 'backup', status: 'connected' });
		const typed = await device({ operation: 'getStatus', device: byId('shop') });
		expect(typed.items[0].json).toMatchObject({ name: 'shop', phone: shop.phone });
		// A plain value (an older workflow, an expression) is read as By ID.
		expect((await device({ operation: 'getStatus', device: 'shop' })).items[0].json.name).toBe('shop');
	});
});

describe('chat (WDM Message, WDM Chat, WDM Label, WDM Contact)', () => {
	test('pages through the chats, latest first: 50, then the rest with no further token', async () => {
		const first = await harness.listSearch('CUSTOM.wdmMessage', 'searchChat');
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		const second = await harness.listSearch('CUSTOM.wdmChat', 'searchChat', { paginationToken: first.paginationToken });
		expect(second.paginationToken).toBeUndefined();
		const values = [...first.results, ...second.results].map((r) => r.value);
		expect(new Set(values)).toEqual(new Set(NUMBERS.map(jidOf)));
	});

	test('the filter finds chats by number (or name)', async () => {
		const found = await harness.listSearch('CUSTOM.wdmMessage', 'searchChat', { filter: NUMBERS[7].slice(-5) });
		expect(found.results.map((r) => r.value)).toEqual([jidOf(NUMBERS[7])]);
		expect(found.paginationToken).toBeUndefined();
	});

	test('a picked chat is where Send Text sends', async () => {
		const [picked] = (await harness.listSearch('CUSTOM.wdmMessage', 'searchChat', { filter: NUMBERS[3] })).results;
		const sent = await message({ operation: 'sendText', number: fromList(String(picked.value)), text: 'picked from the list' });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ chatid: jidOf(NUMBERS[3]), text: 'picked from the list' });
		const typed = await message({ operation: 'sendText', number: byId(NUMBERS[4]), text: 'typed' });
		expect(typed.items[0].json).toMatchObject({ chatid: jidOf(NUMBERS[4]) });
	});
});

describe('message (WDM Message: Message, Reply To, the Find filters)', () => {
	test("lists the device's messages newest first, or the chosen chat's; the filter narrows by text", async () => {
		const number = NUMBERS[9];
		const later = await message({ operation: 'sendText', number, text: 'your order has shipped' });
		expect(later.error).toBeUndefined();
		const latest = await harness.listSearch('CUSTOM.wdmMessage', 'searchMessage');
		expect(latest.results[0]).toEqual({ name: `To ${number}: your order has shipped`, value: later.items[0].json.id });
		expect(latest.results).toHaveLength(50);
		expect(latest.paginationToken).toBe('50');
		// With a chat chosen in Chat (as the editor sends the node's parameters): that chat's messages only.
		const ofChat = await harness.listSearch('CUSTOM.wdmMessage', 'searchMessage', { parameters: { operation: 'react', number: fromList(jidOf(number)) } });
		expect(ofChat.results.map((r) => r.name)).toEqual([`To ${number}: your order has shipped`, `To ${number}: hello`]);
		const found = await harness.listSearch('CUSTOM.wdmMessage', 'searchMessage', { parameters: { number: byId(number) }, filter: 'SHIPPED' });
		expect(found.results.map((r) => r.value)).toEqual([later.items[0].json.id]);
	});

	test('a picked message is the one React reacts to and Reply To quotes; the Find filters take picked values', async () => {
		const number = NUMBERS[10];
		const chat = fromList(jidOf(number));
		const [hello] = (await harness.listSearch('CUSTOM.wdmMessage', 'searchMessage', { parameters: { number: chat } })).results;
		const reacted = await message({ operation: 'react', number: chat, id: pickedEntry(hello), reaction: '👍' });
		expect(reacted.error).toBeUndefined();
		const reply = await message({ operation: 'sendText', number: chat, text: 'as promised', options: { replyid: pickedEntry(hello) } });
		expect(reply.error).toBeUndefined();
		expect(reply.items[0].json).toMatchObject({ quoted: hello.value });

		// Find: the Chat filter picked from the chats, the Message filter from that chat's messages.
		const [listedChat] = (await harness.listSearch('CUSTOM.wdmMessage', 'searchChat', { filter: number })).results;
		const ofChat = await message({ operation: 'find', returnAll: true, filters: { chatid: pickedEntry(listedChat) } });
		expect(ofChat.items.map((item) => item.json.text)).toEqual(['as promised', 'hello']);
		expect(ofChat.items[1].json.reactions).toEqual([expect.objectContaining({ text: '👍' })]);
		const [listedMessage] = (await harness.listSearch('CUSTOM.wdmMessage', 'searchMessage', { parameters: { filters: { chatid: pickedEntry(listedChat) } }, filter: 'promised' })).results;
		const one = await message({ operation: 'find', returnAll: true, filters: { id: pickedEntry(listedMessage) } });
		expect(one.items.map((item) => item.json.id)).toEqual([reply.items[0].json.id]);
	});
});

describe('the chats of the chosen device (WDM Send and Wait: Number; user credential)', () => {
	test("lists the people the device in Device talks with, no groups; a picked one is asked", async () => {
		const first = await users.listSearch('CUSTOM.wdmSendAndWait', 'searchDeviceChat', { parameters: { device: fromList('shop') } });
		expect(first.results).toHaveLength(50);
		expect(first.results.every((r) => String(r.value).endsWith('@s.whatsapp.net'))).toBe(true);
		const [person] = (await users.listSearch('CUSTOM.wdmSendAndWait', 'searchDeviceChat', { parameters: { device: fromList('shop') }, filter: NUMBERS[11] })).results;
		expect(person).toEqual({ name: NUMBERS[11], value: jidOf(NUMBERS[11]) });
		// The groups are the device's chats too, but not people to ask.
		expect((await users.listSearch('CUSTOM.wdmSendAndWait', 'searchDeviceChat', { parameters: { device: fromList('shop') }, filter: 'Runners' })).results).toEqual([]);

		const asked = await sendAndWait({ device: fromList('shop'), number: pickedEntry(person), message: 'Which day suits you?' });
		expect(asked.error).toBeUndefined();
		expect(asked.run.status).toBe('waiting');
		const [question] = (await api.post('/message/find', { chatid: jidOf(NUMBERS[11]), limit: 1 }, { token: shop.token })).body.data.messages;
		expect(question).toMatchObject({ fromMe: true, text: 'Which day suits you?' });
	});

	test('without a Device, or with one the key does not have, the list says what is wrong', async () => {
		await expect(users.listSearch('CUSTOM.wdmSendAndWait', 'searchDeviceChat', { parameters: { device: fromList('') } })).rejects.toThrow('Choose the Device first: the list is of its chats');
		await expect(users.listSearch('CUSTOM.wdmSendAndWait', 'searchDeviceChat', { parameters: { device: byId('nope') } })).rejects.toThrow("No device named 'nope' among this API key's devices");
	});
});

describe('label (WDM Label)', () => {
	test('lists the labels by name; the filter narrows them', async () => {
		const all = await harness.listSearch('CUSTOM.wdmLabel', 'searchLabel');
		expect(all.results).toEqual(expect.arrayContaining([{ name: 'Paid', value: '4' }, { name: 'New order', value: '2' }]));
		const some = await harness.listSearch('CUSTOM.wdmLabel', 'searchLabel', { filter: 'new' });
		expect(some.results.map((r) => r.name)).toEqual(['New customer', 'New order']);
	});

	test('Label Names or IDs offers every label; the chosen ones are all the labels Set Chat Labels leaves', async () => {
		const options = await harness.loadOptions('CUSTOM.wdmLabel', 'listLabel');
		expect(options).toHaveLength(5);
		const chosen = options.filter((o) => ['Paid', 'New order'].includes(o.name)).map((o) => o.value);
		const run = await label({ operation: 'setChatLabels', number: fromList(jidOf(NUMBERS[8])), labelIds: chosen });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ chatid: jidOf(NUMBERS[8]), labelids: ['2', '4'] });
	});

	test("a picked label and a picked chat are what Add Chat Label changes (n8n's declarative engine)", async () => {
		const run = await label({ operation: 'addChatLabel', number: fromList(jidOf(NUMBERS[5])), labelId: fromList('4') });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ chatid: jidOf(NUMBERS[5]), labelids: ['4'], added: ['4'] });
	});
});

describe('group (WDM Group)', () => {
	test("lists the device's groups; the filter searches by name on the server", async () => {
		const all = await harness.listSearch('CUSTOM.wdmGroup', 'searchGroup');
		expect(all.results.map((r) => r.name).sort()).toEqual(['Book club', 'Runners']);
		const some = await harness.listSearch('CUSTOM.wdmGroup', 'searchGroup', { filter: 'run' });
		expect(some.results).toHaveLength(1);
		expect(some.results[0]).toMatchObject({ name: 'Runners', value: expect.stringMatching(/@g\.us$/) });
	});

	test('a picked group is the group Get reads; By JID is checked as a group JID', async () => {
		const [runners] = (await harness.listSearch('CUSTOM.wdmGroup', 'searchGroup', { filter: 'Runners' })).results;
		const got = await group({ operation: 'get', groupjid: fromList(String(runners.value)) });
		expect(got.error).toBeUndefined();
		expect(got.items[0].json).toMatchObject({ jid: runners.value, name: 'Runners' });
		const byJid = property('CUSTOM.wdmGroup', 'groupjid').modes!.find((m) => m.name === 'id')!;
		const regex = new RegExp((byJid.validation![0] as unknown as { properties: { regex: string } }).properties.regex);
		expect([regex.test(String(runners.value)), regex.test(NUMBERS[0])]).toEqual([true, false]);
	});
});

describe('community (WDM Community)', () => {
	test('lists only the communities; a picked one is the community Edit Groups links a group to', async () => {
		const created = await community({ operation: 'create', name: 'Neighbours' });
		expect(created.error).toBeUndefined();
		const { results } = await harness.listSearch('CUSTOM.wdmCommunity', 'searchCommunity');
		expect(results).toEqual([{ name: 'Neighbours', value: created.items[0].json.jid }]);
		const [runners] = (await harness.listSearch('CUSTOM.wdmGroup', 'searchGroup', { filter: 'Runners' })).results;
		// The group to link, picked from the device's groups (the list of Groups' entries).
		const [listed] = (await harness.listSearch('CUSTOM.wdmCommunity', 'searchGroup', { filter: 'Runners' })).results;
		const linked = await community({ operation: 'editGroups', community: fromList(String(results[0].value)), groupAction: 'add', groups: { values: [{ groupjid: pickedEntry(listed) }] } });
		expect(linked.error).toBeUndefined();
		expect(linked.items[0].json.results).toEqual([{ jid: runners.value, ok: true, status: 200, error: null }]);
	});
});

describe('contact (WDM Contact)', () => {
	test('lists the saved contacts; the filter narrows them by name or number', async () => {
		const all = await harness.listSearch('CUSTOM.wdmContact', 'searchContact');
		expect(all.results).toEqual([
			{ name: `Ana Lima (${NUMBERS[1]})`, value: NUMBERS[1] },
			{ name: `Bruno Reis (${NUMBERS[2]})`, value: NUMBERS[2] },
		]);
		const some = await harness.listSearch('CUSTOM.wdmContact', 'searchContact', { filter: 'bruno' });
		expect(some.results.map((r) => r.value)).toEqual([NUMBERS[2]]);
	});

	test('Add starts By Number; a contact picked from the list is the one Remove removes', async () => {
		expect(property('CUSTOM.wdmContact', 'phone').default).toEqual({ mode: 'id', value: '' });
		const removed = await contact({ operation: 'remove', phone: fromList(NUMBERS[2]) });
		expect(removed.error).toBeUndefined();
		expect(removed.items[0].json).toMatchObject({ phone: NUMBERS[2], removed: true });
		expect((await harness.listSearch('CUSTOM.wdmContact', 'searchContact')).results.map((r) => r.value)).toEqual([NUMBERS[1]]);
		const added = await contact({ operation: 'add', phone: byId(NUMBERS[6]), name: 'Caio' });
		expect(added.error).toBeUndefined();
		expect(added.items[0].json).toMatchObject({ phone: NUMBERS[6], name: 'Caio' });
	});
});

test("a list search raises the gateway's own error (a wrong key), as the editor shows it", async () => {
	const wrong = userHarness(server, 'wdm_not_a_key_0000000000');
	await expect(wrong.listSearch('CUSTOM.wdmDevice', 'searchDevice')).rejects.toMatchObject({ message: 'invalid API key', httpCode: '401' });
	expect((await users.listSearch('CUSTOM.wdmDevice', 'searchDevice', { filter: 'backup' })).results).toHaveLength(1);
	// A By Name value built as the editor stores it (no regex: the mode has none).
	expect(locatorValue(property('CUSTOM.wdmDevice', 'device'), 'id', 'shop')).toEqual({ __rl: true, mode: 'id', value: 'shop' });
});
