import type { INodePropertyOptions } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { LABEL_COLORS } from '../../server/src/gateway/labels';
import { labelColorOptions } from '../../nodes/WdmLabel/colors';
import { ADMIN_KEY, type Client, storedDevice } from '../helpers/server';
import { gatewayWithDevice, instanceHarness, nodeRunner, runNode } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** WDM Label: Get Many, Set Chat Labels and Edit, run by n8n's engine against a live server. */

const CONTACT = '5511966660001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

let server: App;
let harness: N8nTestHarness;
let sandbox: Client;

const label = nodeRunner('CUSTOM.wdmLabel', () => harness);

/** The labels of a chat as the server stores them. */
const chatLabels = (chatid: string) => {
	const chat = server.services.store.chats.get(storedDevice(server.services.store, 'shop')!.id, chatid);
	return chat && (JSON.parse(chat.labels) as string[]);
};
const names = (items: { json: Record<string, unknown> }[]) => items.map((i) => i.json.name);

beforeAll(async () => {
	({ server, sandbox, harness } = await gatewayWithDevice('shop'));
});
afterAll(() => server.close());

test('the Color options name the 20 colors of the server palette, each once', () => {
	expect(labelColorOptions).toHaveLength(LABEL_COLORS.length);
	const byValue = [...labelColorOptions].sort((a, b) => (a.value as number) - (b.value as number));
	expect(byValue.map((o: INodePropertyOptions) => o.description)).toEqual(LABEL_COLORS.map((hex, i) => `Color ${i}, ${hex}`));
	expect(new Set(labelColorOptions.map((o) => o.name)).size).toBe(LABEL_COLORS.length);
});

describe('getAll', () => {
	test('lists the labels, one item each; Limit cuts the list', async () => {
		const all = await label({ operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json)).toEqual([
			{ id: '1', name: 'New customer', color: 1, colorHex: '#64C4FF' },
			{ id: '2', name: 'New order', color: 2, colorHex: '#FED428' },
			{ id: '3', name: 'Pending payment', color: 16, colorHex: '#FFAE07' },
			{ id: '4', name: 'Paid', color: 15, colorHex: '#83E421' },
			{ id: '5', name: 'Order complete', color: 3, colorHex: '#DFAEF0' },
		]);
		const two = await label({ operation: 'getAll', limit: 2 });
		expect(names(two.items)).toEqual(['New customer', 'New order']);
	});
});

describe('setChatLabels', () => {
	test('Set All Labels gives the chat exactly the listed labels', async () => {
		const run = await label({ operation: 'setChatLabels', number: CONTACT, labelIds: ['4', '2'] });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({ chatid: CONTACT_JID, labelids: ['2', '4'], added: ['2', '4'], removed: [] });
		expect((run.items[0].json.labels as { name: string }[]).map((l) => l.name)).toEqual(['New order', 'Paid']);
		expect(chatLabels(CONTACT_JID)).toEqual(['2', '4']);
	});

	test('Add One Label and Remove One Label change one label, per input item', async () => {
		const added = await label(
			{ operation: 'addChatLabel', number: '={{ $json.number }}', labelId: '={{ $json.label }}' },
			{ input: [{ json: { number: CONTACT, label: '1' } }, { json: { number: '5511966660002', label: '3' } }] },
		);
		expect(added.error).toBeUndefined();
		expect(added.items.map((i) => i.json.labelids)).toEqual([['1', '2', '4'], ['3']]);
		expect(chatLabels('5511966660002@s.whatsapp.net')).toEqual(['3']);

		const removed = await label({ operation: 'removeChatLabel', number: CONTACT, labelId: '2' });
		expect(removed.error).toBeUndefined();
		expect(removed.items[0].json).toMatchObject({ labelids: ['1', '4'], added: [], removed: ['2'] });
		expect(chatLabels(CONTACT_JID)).toEqual(['1', '4']);
	});

	test('Set All Labels with no IDs clears the chat', async () => {
		const run = await label({ operation: 'setChatLabels', number: CONTACT, labelIds: [] });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ labelids: [], labels: [], removed: ['1', '4'] });
		expect(chatLabels(CONTACT_JID)).toEqual([]);
	});

	test('an unknown label ID: NodeApiError with the gateway message, or an error item', async () => {
		const run = await label({ operation: 'setChatLabels', number: CONTACT, labelIds: ['1', '99'] });
		expect(run.items).toEqual([]);
		expect(run.error).toMatchObject({ name: 'NodeApiError', httpCode: '400', message: "labelids: unknown label id '99'" });
		expect(chatLabels(CONTACT_JID)).toEqual([]);

		const cont = await label({ operation: 'addChatLabel', number: CONTACT, labelId: '77' }, { onError: 'continueRegularOutput' });
		expect(cont.error).toBeUndefined();
		expect(cont.items[0].json).toEqual({ error: "add_labelid: unknown label id '77'" });
	});

	test('a number not on the network: the network refuses (500)', async () => {
		await sandbox.post('/numbers', { number: '5511966660099', onNetwork: false }, { key: ADMIN_KEY });
		const run = await label({ operation: 'addChatLabel', number: '5511966660099', labelId: '1' });
		expect(run.error).toMatchObject({ httpCode: '500', message: '5511966660099 is not on the network' });
	});
});

describe('edit', () => {
	test('renames and recolors; Get Many reads it back', async () => {
		const run = await label({ operation: 'edit', labelId: '2', change: 'update', updateFields: { name: 'Big order', color: 13 } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({ id: '2', name: 'Big order', color: 13, colorHex: '#F64847' });
		const recolored = await label({ operation: 'edit', labelId: '2', updateFields: { color: 5 } });
		expect(recolored.items[0].json).toEqual({ id: '2', name: 'Big order', color: 5, colorHex: '#56CCB4' });
		const listed = await label({ operation: 'getAll', returnAll: true });
		expect(listed.items[1].json).toEqual(recolored.items[0].json);
	});

	test('Delete removes the label and takes it off the chats', async () => {
		await label({ operation: 'setChatLabels', number: CONTACT, labelIds: ['2', '5'] });
		const run = await label({ operation: 'edit', labelId: '5', change: 'delete' });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: '5', name: 'Order complete', deleted: true });
		expect(chatLabels(CONTACT_JID)).toEqual(['2']);
		const listed = await label({ operation: 'getAll', returnAll: true });
		expect(listed.items.map((i) => i.json.id)).toEqual(['1', '2', '3', '4']);
	});

	test('errors: unknown label (404), nothing to change (400), a taken name (409)', async () => {
		const unknown = await label({ operation: 'edit', labelId: '5', updateFields: { name: 'Again' } });
		expect(unknown.error).toMatchObject({ httpCode: '404', message: "labelid: no label with id '5' on this device" });
		const nothing = await label({ operation: 'edit', labelId: '2', change: 'update', updateFields: {} });
		expect(nothing.error).toMatchObject({ httpCode: '400', message: 'one of name, color or delete: true is required' });
		const taken = await label({ operation: 'edit', labelId: '2', updateFields: { name: 'paid' } }, { onError: 'continueRegularOutput' });
		expect(taken.items[0].json).toEqual({ error: "name: a label named 'Paid' already exists (id '4')" });
	});
});

test('a wrong instance token: 401 with the gateway message', async () => {
	const wrong = instanceHarness(server, 'not-a-token');
	const run = await runNode(wrong, 'CUSTOM.wdmLabel', { operation: 'getAll', returnAll: true });
	expect(run.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'invalid instance token' });
});
