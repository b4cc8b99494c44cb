import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, type Client, type Device } from '../helpers/server';
import { PDF, PNG, serveFiles, type FileServer } from '../helpers/files';
import { fileItem, gatewayWithDevice, instanceHarness, jidOf, runNode, type NodeParameters, type RunOptions } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** Every WDM Group operation run by n8n's engine against a live server, with the state read back. */

const CONTACT = '5511920000001';
const CONTACT2 = '5511920000002';

let server: App;
let api: Client;
let sandbox: Client;
let files: FileServer;
let owner: Device;
let member: Device;
let outsider: Device;
const harnesses = new Map<string, N8nTestHarness>();

/** Runs the WDM Group node as `device` (the owner by default). */
function group(parameters: NodeParameters, options: RunOptions & { as?: Device } = {}) {
	const device = options.as ?? owner;
	if (!harnesses.has(device.name)) harnesses.set(device.name, instanceHarness(server, device.token));
	return runNode(harnesses.get(device.name)!, 'CUSTOM.wdmGroup', parameters, options);
}

/** A fixed collection of participants as the editor stores it. */
const people = (...numbers: string[]) => ({ values: numbers.map((number) => ({ number })) });

/** The group as the server answers /group/info for a device. */
async function info(jid: string, device: Device = owner, extra: Record<string, unknown> = {}) {
	const res = await api.post('/group/info', { groupjid: jid, ...extra }, { token: device.token });
	return res.body.data;
}

const listed = async (device: Device) => (await api.get('/group/list', { token: device.token })).body.data as any[];

async function newGroup(name: string, participants = [member.phone, CONTACT]) {
	const res = await api.post('/group/create', { name, participants }, { token: owner.token });
	expect(res.status).toBe(200);
	return res.body.data;
}

beforeAll(async () => {
	({ server, api, sandbox, shop: owner } = await gatewayWithDevice('n-owner', '5511960000001'));
	member = await connectedDevice(server, 'n-member', ADMIN_KEY, '5511960000002');
	outsider = await connectedDevice(server, 'n-outsider', ADMIN_KEY, '5511960000003');
	files = await serveFiles({ '/logo.png': ['image/png', PNG] });
});
afterAll(async () => {
	await files.close();
	await server.close();
});

describe('create', () => {
	test('creates the group from typed-in and mapped participants; the member device lists it', async () => {
		const run = await group(
			{ operation: 'create', name: 'Night shift', participants: { values: [{ number: member.phone }, { number: '={{ $json.numbers }}' }] } },
			{ input: [{ json: { numbers: [CONTACT, jidOf(CONTACT2)] } }] },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const g = run.items[0].json as any;
		expect(g).toMatchObject({ name: 'Night shift', owner: owner.jid, size: 4, inviteLink: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\//) });
		expect(g.results.map((r: any) => r.jid)).toEqual([member.jid, jidOf(CONTACT), jidOf(CONTACT2)]);
		expect((await info(g.jid, member)).participants.map((p: any) => p.phone)).toEqual([owner.phone, member.phone, CONTACT, CONTACT2]);
		expect((await listed(member)).map((x) => x.jid)).toContain(g.jid);

		// A comma-separated list in one entry works too.
		const csv = await group({ operation: 'create', name: 'CSV', participants: people(`${CONTACT}, ${CONTACT2}`) });
		expect(csv.items[0].json.size).toBe(3);
	});

	test('errors: no participants, a bad number, a name too long', async () => {
		expect((await group({ operation: 'create', name: 'Empty', participants: {} })).error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			message: 'participants must have at least 1 items',
		});
		expect((await group({ operation: 'create', name: 'Bad', participants: people('12') })).error).toMatchObject({
			httpCode: '400',
			message: expect.stringMatching(/^participants\[0\] must be an international phone number/),
		});
		expect((await group({ operation: 'create', name: 'x'.repeat(101), participants: people(CONTACT) })).error).toMatchObject({
			httpCode: '400',
			message: 'name must be at most 100 characters long',
		});
	});
});

describe('get, get many, list all', () => {
	test('get: details, with the invite link and join requests for admins; refused for others', async () => {
		const g = await newGroup('Details');
		const run = await group({ operation: 'get', groupjid: g.jid, options: { getInviteLink: true, getRequestsParticipants: true, force: true } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ jid: g.jid, name: 'Details', inviteLink: g.inviteLink, pendingRequests: [] });
		const asMember = await group({ operation: 'get', groupjid: g.jid, options: { getInviteLink: true } }, { as: member });
		expect(asMember.error).toMatchObject({ httpCode: '500', message: `only admins of group ${g.jid} can see the invite link` });
		const unknown = await group({ operation: 'get', groupjid: '120363000000000001@g.us' });
		expect(unknown.error).toMatchObject({ httpCode: '500', message: 'group 120363000000000001@g.us does not exist' });
	});

	test('get many: Return All pages through every group; Limit stops early; search filters', async () => {
		const lister = await connectedDevice(server, 'n-lister', ADMIN_KEY, '5511960000009');
		for (const name of ['Gamma', 'alpha', 'Beta']) {
			await api.post('/group/create', { name, participants: [CONTACT] }, { token: lister.token });
		}
		const all = await group({ operation: 'getAll', returnAll: true }, { as: lister });
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.name)).toEqual(['alpha', 'Beta', 'Gamma']);
		const two = await group({ operation: 'getAll', returnAll: false, limit: 2, options: { noParticipants: true } }, { as: lister });
		expect(two.items.map((i) => i.json.name)).toEqual(['alpha', 'Beta']);
		expect(two.items[0].json.participants).toBeUndefined();
		const search = await group({ operation: 'getAll', returnAll: true, options: { search: 'AMM', force: true } }, { as: lister });
		expect(search.items.map((i) => i.json.name)).toEqual(['Gamma']);
	});

	test('list all: one item per group, optionally without participants', async () => {
		const lister = await connectedDevice(server, 'n-lister2', ADMIN_KEY, '5511960000008');
		await api.post('/group/create', { name: 'Only', participants: [CONTACT] }, { token: lister.token });
		const run = await group({ operation: 'list', options: { noparticipants: true, force: true } }, { as: lister });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({ name: 'Only', size: 2 });
		expect(run.items[0].json.participants).toBeUndefined();
		expect((await group({ operation: 'list' }, { as: lister })).items[0].json.participants).toHaveLength(2);
	});
});

describe('invites, join, leave', () => {
	test('get invite info and join by link; leave; reset invite link makes the old one fail', async () => {
		const g = await newGroup('Invites');
		const preview = await group({ operation: 'getInviteInfo', invitecode: g.inviteLink }, { as: outsider });
		expect(preview.error).toBeUndefined();
		expect(preview.items[0].json).toMatchObject({ jid: g.jid, name: 'Invites', inviteCode: g.inviteCode });

		const joined = await group({ operation: 'join', invitecode: g.inviteCode }, { as: outsider });
		expect(joined.items[0].json).toMatchObject({ jid: g.jid, status: 'joined' });
		expect((await listed(outsider)).map((x) => x.jid)).toContain(g.jid);

		const left = await group({ operation: 'leave', groupjid: g.jid }, { as: outsider });
		expect(left.items[0].json).toEqual({ jid: g.jid, left: true });
		expect((await listed(outsider)).map((x) => x.jid)).not.toContain(g.jid);
		const again = await group({ operation: 'leave', groupjid: g.jid }, { as: outsider });
		expect(again.error).toMatchObject({ httpCode: '500', message: `this device is not a participant of group ${g.jid}` });

		const reset = await group({ operation: 'resetInviteCode', groupjid: g.jid });
		expect(reset.items[0].json.inviteCode).not.toBe(g.inviteCode);
		expect((await info(g.jid, owner, { getInviteLink: true })).inviteLink).toBe(reset.items[0].json.inviteLink);
		const old = await group({ operation: 'join', invitecode: g.inviteLink }, { as: outsider });
		expect(old.error).toMatchObject({ httpCode: '500', message: `invite code ${g.inviteCode} is invalid: it does not exist or has been reset` });
		const bad = await group({ operation: 'getInviteInfo', invitecode: 'https://example.com/x' }, { as: outsider });
		expect(bad.error).toMatchObject({ httpCode: '400', message: expect.stringMatching(/^invitecode must be an invite code/) });
	});
});

describe('settings', () => {
	test('rename, describe: read back in the member device\'s list and info', async () => {
		const g = await newGroup('Before');
		const renamed = await group({ operation: 'updateName', groupjid: g.jid, name: 'After' });
		expect(renamed.items[0].json.name).toBe('After');
		expect((await listed(member)).find((x) => x.jid === g.jid).name).toBe('After');
		const described = await group({ operation: 'updateDescription', groupjid: g.jid, description: 'Shifts and swaps' });
		expect(described.items[0].json.description).toBe('Shifts and swaps');
		expect((await info(g.jid, member)).description).toBe('Shifts and swaps');
	});

	test('locked: a member cannot rename; announce: a member cannot send', async () => {
		const g = await newGroup('Rules');
		const locked = await group({ operation: 'updateLocked', groupjid: g.jid, locked: true });
		expect(locked.items[0].json.locked).toBe(true);
		const rename = await group({ operation: 'updateName', groupjid: g.jid, name: 'Mine' }, { as: member });
		expect(rename.error).toMatchObject({ httpCode: '500', message: `group ${g.jid} is locked: only admins can change its name` });
		expect((await info(g.jid)).name).toBe('Rules');
		const unlocked = await group({ operation: 'updateLocked', groupjid: g.jid, locked: false });
		expect(unlocked.items[0].json.locked).toBe(false);

		const announce = await group({ operation: 'updateAnnounce', groupjid: g.jid, announce: true });
		expect(announce.items[0].json.announce).toBe(true);
		const sent = await api.post('/send/text', { number: g.jid, text: 'hi' }, { token: member.token });
		expect(sent.body.message).toBe(`only admins can send messages to group ${g.jid} (announce is on)`);
		const asMember = await group({ operation: 'updateAnnounce', groupjid: g.jid, announce: false }, { as: member });
		expect(asMember.error).toMatchObject({ httpCode: '500', message: `only admins of group ${g.jid} can change who may send messages` });
	});

	test('image from a binary input, a URL or Base64; removed; a non-image is refused', async () => {
		const g = await newGroup('Pictures');
		const fromBinary = await group({ operation: 'updateImage', groupjid: g.jid, source: 'binary', binaryPropertyName: 'data' }, { input: [fileItem(PNG, 'image/png', 'team.png')] });
		expect(fromBinary.error).toBeUndefined();
		const url = fromBinary.items[0].json.imageURL as string;
		expect(url).toMatch(/\/wp-content\/uploads\/wdm\//);
		expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(PNG);
		expect((await info(g.jid, member)).imageURL).toBe(url);

		const fromUrl = await group({ operation: 'updateImage', groupjid: g.jid, source: 'url', imageUrl: `${files.url}/logo.png` });
		expect(fromUrl.items[0].json.imageURL).toMatch(/\/logo\.png$/);
		const fromBase64 = await group({ operation: 'updateImage', groupjid: g.jid, source: 'base64', imageBase64: PNG.toString('base64') });
		expect(fromBase64.items[0].json.imageURL).toMatch(/^http/);

		const removed = await group({ operation: 'updateImage', groupjid: g.jid, source: 'remove' });
		expect(removed.items[0].json.imageURL).toBeNull();
		expect((await info(g.jid)).imageURL).toBeNull();

		const pdf = await group({ operation: 'updateImage', groupjid: g.jid, source: 'binary', binaryPropertyName: 'data' }, { input: [fileItem(PDF, 'application/pdf', 'x.pdf')] });
		expect(pdf.error).toMatchObject({ httpCode: '400', message: 'image must be an image file (got application/pdf)' });
		const missing = await group({ operation: 'updateImage', groupjid: g.jid, source: 'binary', binaryPropertyName: 'photo' }, { input: [{ json: {} }] });
		expect(missing.error).toMatchObject({ message: 'The input item has no binary property "photo"' });
	});
});

describe('update participants', () => {
	test('promote (admin in info), demote, add, remove: one result per participant', async () => {
		const g = await newGroup('Crew', [member.phone]);
		const promoted = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'promote', participants: people(member.jid) });
		expect(promoted.items[0].json.results).toEqual([{ jid: member.jid, ok: true, status: 200, error: null }]);
		expect((await info(g.jid)).participants.find((p: any) => p.phone === member.phone)).toMatchObject({ isAdmin: true });
		const demoted = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'demote', participants: people(member.phone) });
		expect((demoted.items[0].json.results as any[])[0].ok).toBe(true);
		expect((await info(g.jid)).participants.find((p: any) => p.phone === member.phone)).toMatchObject({ isAdmin: false });

		const added = await group(
			{ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'add', participants: { values: [{ number: '={{ $json.phones }}' }] } },
			{ input: [{ json: { phones: `${CONTACT},${member.phone}` } }] },
		);
		expect(added.items[0].json.results).toEqual([
			{ jid: jidOf(CONTACT), ok: true, status: 200, error: null },
			{ jid: member.jid, ok: false, status: 409, error: 'already a participant' },
		]);
		const removed = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'remove', participants: people(member.phone) });
		expect((removed.items[0].json.results as any[])[0].ok).toBe(true);
		expect((await listed(member)).map((x) => x.jid)).not.toContain(g.jid);

		const notAdmin = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'add', participants: people(CONTACT2) }, { as: outsider });
		expect(notAdmin.error).toMatchObject({ httpCode: '500', message: `this device is not a participant of group ${g.jid}` });
	});

	test('approve and reject join requests made through the sandbox', async () => {
		const g = await newGroup('Gated', [member.phone]);
		await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true }, { key: ADMIN_KEY });
		for (const number of [CONTACT, CONTACT2]) {
			expect((await sandbox.post('/groups/join', { number, invitecode: g.inviteCode }, { key: ADMIN_KEY })).body.data.status).toBe('pending');
		}
		const approved = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'approve', participants: people(CONTACT2) });
		expect((approved.items[0].json.results as any[])[0]).toEqual({ jid: jidOf(CONTACT2), ok: true, status: 200, error: null });
		const rejected = await group({ operation: 'updateParticipants', groupjid: g.jid, participantAction: 'reject', participants: people(CONTACT) });
		expect((rejected.items[0].json.results as any[])[0].ok).toBe(true);
		const after = await info(g.jid, owner, { getRequestsParticipants: true });
		expect(after.pendingRequests).toEqual([]);
		expect(after.participants.map((p: any) => p.phone)).toEqual([owner.phone, member.phone, CONTACT2]);
	});

	test("onError 'continueRegularOutput': a failing item becomes an error item, the others go through", async () => {
		const g = await newGroup('Batch');
		const run = await group(
			{ operation: 'updateName', groupjid: '={{ $json.jid }}', name: '={{ $json.name }}' },
			{ input: [{ json: { jid: g.jid, name: 'Renamed' } }, { json: { jid: '120363000000000002@g.us', name: 'Nope' } }], onError: 'continueRegularOutput' },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(run.items[0].json).toMatchObject({ jid: g.jid, name: 'Renamed' });
		expect(run.items[1].json).toEqual({ error: 'group 120363000000000002@g.us does not exist' });
	});
});
