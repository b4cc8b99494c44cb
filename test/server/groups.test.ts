import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, eventually, expectError, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import { PDF, PNG, serveFiles, type FileServer } from '../helpers/files';
import { startReceiver, type Receiver } from '../helpers/webhooks';

/** The group routes over real HTTP: state read back by later routes, across devices, and every refusal. */

const CONTACT = '5511900000001';
const CONTACT2 = '5511900000002';
const ABSENT = '5511900000099';
const jidOf = (phone: string) => `${phone}@s.whatsapp.net`;

let server: App;
let api: Client;
let sandbox: Client;
let files: FileServer;
let receiver: Receiver;
/** `owner` creates the groups; `member` is another device of this server added to them; `outsider` is in none at first. */
let owner: Device;
let member: Device;
let outsider: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	owner = await connectedDevice(server, 'g-owner', ADMIN_KEY, '5511970000001');
	member = await connectedDevice(server, 'g-member', ADMIN_KEY, '5511970000002');
	outsider = await connectedDevice(server, 'g-outsider', ADMIN_KEY, '5511970000003');
	expect((await sandbox.post('/numbers', { number: ABSENT, onNetwork: false }, { key: ADMIN_KEY })).status).toBe(200);
	receiver = await startReceiver();
	const hook = await api.post(`/devices/${member.name}/webhook`, { url: `${receiver.url}/member`, events: ['groups', 'messages'] }, { key: ADMIN_KEY });
	expect(hook.status).toBe(200);
	files = await serveFiles({ '/logo.png': ['image/png', PNG], '/doc.pdf': ['application/pdf', PDF] });
});
afterAll(async () => {
	await files.close();
	await receiver.close();
	await server.close();
});

const post = (route: string, body: unknown, device: Device = owner) => api.post(route, body, { token: device.token });

/** A new group of `owner` with `member` and a contact; returns its view. */
async function newGroup(name = 'Team', participants: string[] = [member.phone, CONTACT]) {
	const res = await post('/group/create', { name, participants });
	expect(res.status).toBe(200);
	return res.body.data;
}

const info = async (jid: string, device: Device = owner, extra: Record<string, unknown> = {}) => {
	const res = await post('/group/info', { groupjid: jid, ...extra }, device);
	expect(res.status).toBe(200);
	return res.body.data;
};

const listOf = async (device: Device) => {
	const res = await api.get('/group/list', { token: device.token });
	expect(res.status).toBe(200);
	return res.body.data as any[];
};

const participant = (view: any, phone: string) => view.participants.find((p: any) => p.phone === phone);

describe('POST /group/create', () => {
	test('creates the group: the creator is super admin, numbers and JIDs are normalised, absent numbers are reported', async () => {
		const res = await post('/group/create', {
			name: '  Sales team ',
			participants: [member.phone, jidOf(CONTACT), '+55 (11) 90000-0002', ABSENT, owner.phone, CONTACT],
		});
		expect(res.status).toBe(200);
		const g = res.body.data;
		expect(g).toMatchObject({
			name: 'Sales team',
			description: '',
			owner: owner.jid,
			announce: false,
			locked: false,
			joinApprovalMode: false,
			isCommunity: false,
			isCommunityAnnounce: false,
			community: null,
			imageURL: null,
			size: 4,
		});
		expect(g.jid).toMatch(/^120363\d{12}@g\.us$/);
		expect(g.inviteCode).toMatch(/^[A-Za-z0-9]{22}$/);
		expect(g.inviteLink).toBe(`https://chat.whatsapp.com/${g.inviteCode}`);
		expect(g.participants).toEqual([
			{ jid: owner.jid, phone: owner.phone, isAdmin: true, isSuperAdmin: true },
			{ jid: member.jid, phone: member.phone, isAdmin: false, isSuperAdmin: false },
			{ jid: jidOf(CONTACT), phone: CONTACT, isAdmin: false, isSuperAdmin: false },
			{ jid: jidOf(CONTACT2), phone: CONTACT2, isAdmin: false, isSuperAdmin: false },
		]);
		expect(g.results).toEqual([
			{ jid: member.jid, ok: true, status: 200, error: null },
			{ jid: jidOf(CONTACT), ok: true, status: 200, error: null },
			{ jid: jidOf(CONTACT2), ok: true, status: 200, error: null },
			{ jid: jidOf(ABSENT), ok: false, status: 404, error: `${ABSENT} is not on the network` },
		]);
		// The other device of this server is a member: it lists the group and was told.
		expect((await listOf(member)).map((x) => x.jid)).toContain(g.jid);
		expect((await info(g.jid, member)).participants).toEqual(g.participants);
		const created = await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'created'));
		expect(created.body).toMatchObject({ event: 'groups', device: member.name, data: { author: owner.jid, group: { jid: g.jid, name: 'Sales team' } } });
		expect((await listOf(outsider)).map((x) => x.jid)).not.toContain(g.jid);
	});

	test('bad input is a 400 naming the field', async () => {
		expectError(await post('/group/create', { participants: [CONTACT] }), 400, 'name is required');
		expectError(await post('/group/create', { name: '   ', participants: [CONTACT] }), 400, 'name must be at least 1 characters long');
		expectError(await post('/group/create', { name: 'x'.repeat(101), participants: [CONTACT] }), 400, 'name must be at most 100 characters long');
		expectError(await post('/group/create', { name: 'x' }), 400, 'participants is required');
		expectError(await post('/group/create', { name: 'x', participants: [] }), 400, 'participants must have at least 1 items');
		expectError(await post('/group/create', { name: 'x', participants: 'abc' }), 400, /^participants must be an array/);
		expectError(await post('/group/create', { name: 'x', participants: [CONTACT, 'abc'] }), 400, /^participants\[1\] must be an international phone number/);
		expectError(await post('/group/create', { name: 'x', participants: ['120363000000000001@g.us'] }), 400, /^participants\[0\] must be a phone number or a user JID, not a group/);
		expectError(await post('/group/create', { name: 'x', participants: [CONTACT], description: 'd' }), 400, 'body has unknown field(s): description');
	});

	test('a device that is not connected cannot create groups (network failure); a bad token is a 401', async () => {
		const created = await api.post('/devices', { name: 'g-offline' }, { key: ADMIN_KEY });
		const res = await api.post('/group/create', { name: 'x', participants: [CONTACT] }, { token: created.body.data.token });
		expectError(res, 500, /^device 'g-offline' is not connected/);
		expectError(await api.post('/group/create', { name: 'x', participants: [CONTACT] }, { token: 'nope' }), 401, 'invalid instance token');
	});
});

describe('POST /group/info', () => {
	test('details for any participant; the invite link and join requests for admins only', async () => {
		const g = await newGroup('Info');
		const seen = await info(g.jid, member, { force: true });
		expect(seen).toMatchObject({ jid: g.jid, name: 'Info', size: 3 });
		expect(seen.inviteLink).toBeUndefined();
		expect(seen.pendingRequests).toBeUndefined();
		const withLink = await info(g.jid, owner, { getInviteLink: true, getRequestsParticipants: true });
		expect(withLink).toMatchObject({ inviteCode: g.inviteCode, inviteLink: g.inviteLink, pendingRequests: [] });
		expectError(await post('/group/info', { groupjid: g.jid, getInviteLink: true }, member), 500, `only admins of group ${g.jid} can see the invite link`);
		expectError(await post('/group/info', { groupjid: g.jid, getRequestsParticipants: true }, member), 500, `only admins of group ${g.jid} can see the join requests`);
	});

	test('unknown group and non-members are network failures; bad JIDs are 400s', async () => {
		const g = await newGroup('Private');
		expectError(await post('/group/info', { groupjid: g.jid }, outsider), 500, `this device is not a participant of group ${g.jid}`);
		expectError(await post('/group/info', { groupjid: '120363999999999999@g.us' }), 500, 'group 120363999999999999@g.us does not exist');
		expectError(await post('/group/info', {}), 400, 'groupjid is required');
		expectError(await post('/group/info', { groupjid: CONTACT }), 400, 'groupjid must be a group JID such as 120363012345678901@g.us');
		expectError(await post('/group/info', { groupjid: g.jid, getInviteLink: 'yes' }), 400, /^getInviteLink must be a boolean/);
		// JIDs are case-insensitive.
		expect((await post('/group/info', { groupjid: g.jid.toUpperCase() })).status).toBe(200);
	});
});

describe('invites: inviteInfo, join, resetInviteCode', () => {
	test('inviteInfo and join take the code or the full link; the joiner becomes a member', async () => {
		const g = await newGroup('Open');
		const byCode = await post('/group/inviteInfo', { invitecode: g.inviteCode }, outsider);
		expect(byCode.status).toBe(200);
		expect(byCode.body.data).toMatchObject({ jid: g.jid, name: 'Open', size: 3, inviteCode: g.inviteCode });
		const byLink = await post('/group/inviteInfo', { invitecode: `${g.inviteLink}?lang=en` }, outsider);
		expect(byLink.body.data.jid).toBe(g.jid);

		const joined = await post('/group/join', { invitecode: g.inviteLink }, outsider);
		expect(joined.status).toBe(200);
		expect(joined.body.data).toMatchObject({ jid: g.jid, status: 'joined', size: 4 });
		expect(participant(await info(g.jid), outsider.phone)).toMatchObject({ isAdmin: false });
		expect((await listOf(outsider)).map((x) => x.jid)).toContain(g.jid);
		await eventually(() =>
			receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'join' && h.body.data.participants[0] === outsider.jid),
		);
		// Joining again changes nothing.
		expect((await post('/group/join', { invitecode: g.inviteCode }, outsider)).body.data).toMatchObject({ status: 'member', size: 4 });
	});

	test('reset: the old code no longer opens or joins the group, the new one does; admins only', async () => {
		const g = await newGroup('Reset');
		expectError(await post('/group/resetInviteCode', { groupjid: g.jid }, member), 500, `only admins of group ${g.jid} can reset the invite link`);
		const reset = await post('/group/resetInviteCode', { groupjid: g.jid });
		expect(reset.status).toBe(200);
		const code = reset.body.data.inviteCode;
		expect(code).toMatch(/^[A-Za-z0-9]{22}$/);
		expect(code).not.toBe(g.inviteCode);
		expect(reset.body.data.inviteLink).toBe(`https://chat.whatsapp.com/${code}`);
		expect((await info(g.jid, owner, { getInviteLink: true })).inviteCode).toBe(code);

		const invalid = `invite code ${g.inviteCode} is invalid: it does not exist or has been reset`;
		expectError(await post('/group/join', { invitecode: g.inviteCode }, outsider), 500, invalid);
		expectError(await post('/group/inviteInfo', { invitecode: g.inviteLink }, outsider), 500, invalid);
		expect((await listOf(outsider)).map((x) => x.jid)).not.toContain(g.jid);
		expect((await post('/group/join', { invitecode: code }, outsider)).body.data.status).toBe('joined');
	});

	test('malformed codes are 400s, unknown ones network failures', async () => {
		expectError(await post('/group/join', {}, outsider), 400, 'invitecode is required');
		expectError(await post('/group/join', { invitecode: 'https://example.com/abc' }, outsider), 400, /^invitecode must be an invite code or an invite link/);
		expectError(await post('/group/inviteInfo', { invitecode: 'a b' }, outsider), 400, /^invitecode must be an invite code/);
		expectError(await post('/group/join', { invitecode: 'AAAAAAAAAAAAAAAAAAAAAA' }, outsider), 500, /^invite code AAAAAAAAAAAAAAAAAAAAAA is invalid/);
	});
});

describe('POST /group/leave', () => {
	test('a device that left no longer lists the group, gets its messages, or may act on it', async () => {
		const g = await newGroup('Leaving');
		const left = await post('/group/leave', { groupjid: g.jid }, member);
		expect(left.status).toBe(200);
		expect(left.body.data).toEqual({ jid: g.jid, left: true });
		expect((await listOf(member)).map((x) => x.jid)).not.toContain(g.jid);
		expect(participant(await info(g.jid), member.phone)).toBeUndefined();
		const notMember = `this device is not a participant of group ${g.jid}`;
		expectError(await post('/group/info', { groupjid: g.jid }, member), 500, notMember);
		expectError(await post('/group/updateName', { groupjid: g.jid, name: 'Mine' }, member), 500, notMember);
		expectError(await post('/group/leave', { groupjid: g.jid }, member), 500, notMember);
		expectError(await post('/send/text', { number: g.jid, text: 'hi' }, member), 500, `group ${g.jid} does not exist or this device is not a member`);
		// The owner's messages no longer reach it.
		const sent = await post('/send/text', { number: g.jid, text: 'after you left' });
		expect(sent.status).toBe(200);
		const found = await post('/message/find', { id: sent.body.data.messageid }, member);
		expect(found.body.data.total).toBe(0);
		await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'leave'));
	});

	test('when the last admin leaves, the longest-standing participant becomes admin', async () => {
		const g = await newGroup('Heir', [member.phone, CONTACT]);
		expect((await post('/group/leave', { groupjid: g.jid })).status).toBe(200);
		const after = await info(g.jid, member);
		expect(after.size).toBe(2);
		expect(participant(after, member.phone)).toMatchObject({ isAdmin: true, isSuperAdmin: false });
		// Now an admin, the member may change what only admins may.
		expect((await post('/group/updateLocked', { groupjid: g.jid, locked: true }, member)).status).toBe(200);
	});

	test('unknown group, bad JID', async () => {
		expectError(await post('/group/leave', { groupjid: '120363000000000000@g.us' }), 500, 'group 120363000000000000@g.us does not exist');
		expectError(await post('/group/leave', { groupjid: 'x@g.us' }), 400, /^groupjid must be a group JID/);
	});
});

describe('GET and POST /group/list', () => {
	let jids: string[];
	let lister: Device;

	beforeAll(async () => {
		lister = await connectedDevice(server, 'g-lister', ADMIN_KEY, '5511970000009');
		jids = [];
		for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'echo']) {
			const res = await post('/group/create', { name, participants: [CONTACT] }, lister);
			jids.push(res.body.data.jid);
		}
	});

	test('GET lists every group by name; noparticipants leaves the lists out', async () => {
		const res = await api.get('/group/list?force=true', { token: lister.token });
		expect(res.status).toBe(200);
		expect(res.body.data.map((g: any) => g.name)).toEqual(['Alpha', 'bravo', 'charlie', 'delta', 'echo']);
		expect(res.body.data[0].participants).toHaveLength(2);
		const bare = await api.get('/group/list?noparticipants=true', { token: lister.token });
		expect(bare.body.data[0].participants).toBeUndefined();
		expect(bare.body.data[0].size).toBe(2);
		expectError(await api.get('/group/list?noparticipants=maybe', { token: lister.token }), 400, /^noparticipants/);
	});

	test('POST pages with page/pageSize (defaults 1 and 50) or limit/offset, searches by name or JID', async () => {
		const all = await post('/group/list', {}, lister);
		expect(all.body.data).toMatchObject({ total: 5, page: 1, pageSize: 50, limit: 50, offset: 0, nextOffset: null, hasMore: false });
		expect(all.body.data.groups).toHaveLength(5);

		const page2 = await post('/group/list', { page: 2, pageSize: 2 }, lister);
		expect(page2.body.data).toMatchObject({ total: 5, page: 2, pageSize: 2, offset: 2, nextOffset: 4, hasMore: true });
		expect(page2.body.data.groups.map((g: any) => g.name)).toEqual(['charlie', 'delta']);

		const byOffset = await post('/group/list', { limit: 2, offset: 4 }, lister);
		expect(byOffset.body.data).toMatchObject({ total: 5, page: 3, pageSize: 2, offset: 4, nextOffset: null, hasMore: false });
		expect(byOffset.body.data.groups.map((g: any) => g.name)).toEqual(['echo']);

		const byName = await post('/group/list', { search: 'ALP', noParticipants: true, force: true }, lister);
		expect(byName.body.data.groups.map((g: any) => g.name)).toEqual(['Alpha']);
		expect(byName.body.data.groups[0].participants).toBeUndefined();
		const byJid = await post('/group/list', { search: jids[0] }, lister);
		expect(byJid.body.data.groups.map((g: any) => g.jid)).toEqual([jids[0]]);
		expect((await post('/group/list', { search: 'nothing like it' }, lister)).body.data).toMatchObject({ groups: [], total: 0 });
	});

	test('bad paging is a 400 naming the field', async () => {
		expectError(await post('/group/list', { page: 0 }, lister), 400, 'page must be at least 1');
		expectError(await post('/group/list', { pageSize: 1001 }, lister), 400, 'pageSize must be at most 1000');
		expectError(await post('/group/list', { offset: -1 }, lister), 400, 'offset must be at least 0');
		expectError(await post('/group/list', { pageSize: 10, limit: 20 }, lister), 400, 'limit is an alias of pageSize: give one of them, or the same value');
		expectError(await post('/group/list', { page: 2, offset: 5 }, lister), 400, 'offset cannot be combined with page');
		expectError(await post('/group/list', { search: 3 }, lister), 400, /^search must be a string/);
	});
});

describe('settings: name, description, image, announce, locked', () => {
	test('a renamed group lists with its new name; any member may rename while unlocked', async () => {
		const g = await newGroup('Old name');
		const renamed = await post('/group/updateName', { groupjid: g.jid, name: 'New name' });
		expect(renamed.status).toBe(200);
		expect(renamed.body.data).toMatchObject({ jid: g.jid, name: 'New name' });
		expect((await listOf(member)).find((x) => x.jid === g.jid).name).toBe('New name');
		const update = await eventually(() =>
			receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'update' && h.body.data.changes.name === 'New name'),
		);
		expect(update.body.data.author).toBe(owner.jid);
		expect((await post('/group/updateName', { groupjid: g.jid, name: 'Member named' }, member)).body.data.name).toBe('Member named');
		expectError(await post('/group/updateName', { groupjid: g.jid, name: '' }), 400, 'name must be at least 1 characters long');
		expectError(await post('/group/updateName', { groupjid: g.jid }), 400, 'name is required');
	});

	test('locked: only admins edit name, description and image; only admins lock', async () => {
		const g = await newGroup('Lockable');
		expectError(await post('/group/updateLocked', { groupjid: g.jid, locked: true }, member), 500, `only admins of group ${g.jid} can change who may edit the group info`);
		const locked = await post('/group/updateLocked', { groupjid: g.jid, locked: true });
		expect(locked.body.data.locked).toBe(true);
		expect((await info(g.jid, member)).locked).toBe(true);
		expectError(await post('/group/updateName', { groupjid: g.jid, name: 'Hijack' }, member), 500, `group ${g.jid} is locked: only admins can change its name`);
		expectError(await post('/group/updateDescription', { groupjid: g.jid, description: 'x' }, member), 500, `group ${g.jid} is locked: only admins can change its description`);
		expectError(await post('/group/updateImage', { groupjid: g.jid, image: PNG.toString('base64') }, member), 500, `group ${g.jid} is locked: only admins can change its image`);
		expect((await info(g.jid)).name).toBe('Lockable');
		expect((await post('/group/updateName', { groupjid: g.jid, name: 'Admin named' })).body.data.name).toBe('Admin named');
		expect((await post('/group/updateLocked', { groupjid: g.jid, locked: false })).body.data.locked).toBe(false);
		expect((await post('/group/updateName', { groupjid: g.jid, name: 'Member again' }, member)).status).toBe(200);
		expectError(await post('/group/updateLocked', { groupjid: g.jid, locked: 'yes' }), 400, /^locked must be a boolean/);
	});

	test('description: set, read back, cleared; at most 2048 characters', async () => {
		const g = await newGroup('Described');
		expect((await post('/group/updateDescription', { groupjid: g.jid, description: 'Rules: be kind' })).body.data.description).toBe('Rules: be kind');
		expect((await info(g.jid, member)).description).toBe('Rules: be kind');
		expect((await post('/group/updateDescription', { groupjid: g.jid, description: '' })).body.data.description).toBe('');
		expectError(await post('/group/updateDescription', { groupjid: g.jid, description: 'x'.repeat(2049) }), 400, 'description must be at most 2048 characters long');
		expectError(await post('/group/updateDescription', { groupjid: g.jid }), 400, 'description is required');
	});

	test('image: from Base64 or a URL, served back at imageURL; must be an image; "remove" clears it', async () => {
		const g = await newGroup('Pictured');
		const fromBase64 = await post('/group/updateImage', { groupjid: g.jid, image: PNG.toString('base64') });
		expect(fromBase64.status).toBe(200);
		const url = fromBase64.body.data.imageURL;
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/wp-content\/uploads\/wdm\//);
		const served = await fetch(url);
		expect(served.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
		expect((await info(g.jid, member)).imageURL).toBe(url);

		const fromUrl = await post('/group/updateImage', { groupjid: g.jid, image: `${files.url}/logo.png` }, member);
		expect(fromUrl.status).toBe(200);
		expect(fromUrl.body.data.imageURL).toMatch(/\/logo\.png$/);
		// The replaced image is gone.
		expect((await fetch(url)).status).toBe(404);

		expectError(await post('/group/updateImage', { groupjid: g.jid, image: `${files.url}/doc.pdf` }), 400, 'image must be an image file (got application/pdf)');
		expectError(await post('/group/updateImage', { groupjid: g.jid, image: PDF.toString('base64') }), 400, 'image must be an image file (got application/pdf)');
		expectError(await post('/group/updateImage', { groupjid: g.jid, image: `${files.url}/missing.png` }), 400, `image: could not fetch ${files.url}/missing.png`);
		expectError(await post('/group/updateImage', { groupjid: g.jid, image: 'not base64!' }), 400, 'image must be an http(s) URL, a data URI or Base64 content');
		expectError(await post('/group/updateImage', { groupjid: g.jid }), 400, 'image is required');

		const removed = await post('/group/updateImage', { groupjid: g.jid, image: 'REMOVE' });
		expect(removed.body.data.imageURL).toBeNull();
		expect((await post('/group/updateImage', { groupjid: g.jid, image: 'delete' })).body.data.imageURL).toBeNull();
		expect((await info(g.jid, member)).imageURL).toBeNull();
	});

	test("announce: a non-admin's message to the group is refused, an admin's goes to every member device", async () => {
		const g = await newGroup('Announcements', [member.phone, outsider.phone, CONTACT]);
		expectError(await post('/group/updateAnnounce', { groupjid: g.jid, announce: true }, member), 500, `only admins of group ${g.jid} can change who may send messages`);
		const on = await post('/group/updateAnnounce', { groupjid: g.jid, announce: true });
		expect(on.body.data.announce).toBe(true);
		expectError(await post('/send/text', { number: g.jid, text: 'me too' }, member), 500, `only admins can send messages to group ${g.jid} (announce is on)`);
		// An asynchronous send is refused at once too.
		expectError(await post('/send/text', { number: g.jid, text: 'later', async: true }, member), 500, /announce is on/);

		const sent = await post('/send/text', { number: g.jid, text: 'Office closed on Friday' });
		expect(sent.status).toBe(200);
		expect(sent.body.data).toMatchObject({ chatid: g.jid, isGroup: true, fromMe: true });
		for (const device of [member, outsider]) {
			const found = await post('/message/find', { chatid: g.jid }, device);
			expect(found.body.data.messages[0]).toMatchObject({
				messageid: sent.body.data.messageid,
				chatid: g.jid,
				sender: owner.jid,
				fromMe: false,
				isGroup: true,
				text: 'Office closed on Friday',
			});
		}
		await eventually(() => receiver.events('messages').find((h) => h.body.data.messageid === sent.body.data.messageid));
		// Promoted, the member may write; announce off, anyone may.
		await post('/group/updateParticipants', { groupjid: g.jid, action: 'promote', participants: [member.phone] });
		expect((await post('/send/text', { number: g.jid, text: 'admin now' }, member)).status).toBe(200);
		await post('/group/updateAnnounce', { groupjid: g.jid, announce: false });
		expect((await post('/send/text', { number: g.jid, text: 'free for all' }, outsider)).status).toBe(200);
		expectError(await post('/group/updateAnnounce', { groupjid: g.jid }), 400, 'announce is required');
	});

	test('a message to a group the device is not in is refused; the chat is named after the group', async () => {
		const g = await newGroup('Chatty');
		expectError(await post('/send/text', { number: g.jid, text: 'hi' }, outsider), 500, `group ${g.jid} does not exist or this device is not a member`);
		expect((await post('/send/text', { number: g.jid, text: 'hi all' })).status).toBe(200);
		const chat = server.services.store.chats.get(storedDevice(server.services.store, member.name)!.id, g.jid);
		expect(chat).toMatchObject({ name: 'Chatty', is_group: 1 });
	});
});

describe('POST /group/updateParticipants', () => {
	test('promote makes an admin (read back in info), demote undoes it; the creator stays', async () => {
		const g = await newGroup('Roles');
		const promoted = await post('/group/updateParticipants', { groupjid: g.jid, action: 'promote', participants: [member.jid, CONTACT] });
		expect(promoted.status).toBe(200);
		expect(promoted.body.data.results).toEqual([
			{ jid: member.jid, ok: true, status: 200, error: null },
			{ jid: jidOf(CONTACT), ok: true, status: 200, error: null },
		]);
		expect(participant(await info(g.jid, member), member.phone)).toMatchObject({ isAdmin: true, isSuperAdmin: false });
		await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'promote'));
		// Now an admin, the member may demote others, but not the creator.
		const demoted = await post('/group/updateParticipants', { groupjid: g.jid, action: 'demote', participants: [CONTACT, owner.phone, ABSENT] }, member);
		expect(demoted.body.data.results).toEqual([
			{ jid: jidOf(CONTACT), ok: true, status: 200, error: null },
			{ jid: owner.jid, ok: false, status: 403, error: 'the group creator cannot be demoted' },
			{ jid: jidOf(ABSENT), ok: false, status: 404, error: 'not a participant of the group' },
		]);
		expect(participant(await info(g.jid), CONTACT)).toMatchObject({ isAdmin: false });
	});

	test('add and remove: each participant gets a result; the removed device loses the group', async () => {
		const g = await newGroup('Members', [CONTACT]);
		const added = await post('/group/updateParticipants', { groupjid: g.jid, action: 'add', participants: [member.phone, CONTACT, ABSENT, '5511900000003'] });
		expect(added.body.data.results).toEqual([
			{ jid: member.jid, ok: true, status: 200, error: null },
			{ jid: jidOf(CONTACT), ok: false, status: 409, error: 'already a participant' },
			{ jid: jidOf(ABSENT), ok: false, status: 404, error: `${ABSENT} is not on the network` },
			{ jid: jidOf('5511900000003'), ok: true, status: 200, error: null },
		]);
		expect(added.body.data.size).toBe(4);
		expect((await listOf(member)).map((x) => x.jid)).toContain(g.jid);

		const removed = await post('/group/updateParticipants', { groupjid: g.jid, action: 'remove', participants: [member.phone, owner.phone, '5511900000004'] });
		expect(removed.body.data.results).toEqual([
			{ jid: member.jid, ok: true, status: 200, error: null },
			{ jid: owner.jid, ok: false, status: 403, error: 'the group creator cannot be removed' },
			{ jid: jidOf('5511900000004'), ok: false, status: 404, error: 'not a participant of the group' },
		]);
		expect((await listOf(member)).map((x) => x.jid)).not.toContain(g.jid);
		expectError(await post('/group/info', { groupjid: g.jid }, member), 500, `this device is not a participant of group ${g.jid}`);
		// The removed device was told.
		await eventually(() =>
			receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'remove' && h.body.data.participants.includes(member.jid)),
		);
	});

	test('only admins manage participants; bad input is a 400', async () => {
		const g = await newGroup('Guarded');
		expectError(
			await post('/group/updateParticipants', { groupjid: g.jid, action: 'add', participants: [CONTACT2] }, member),
			500,
			`only admins of group ${g.jid} can add participants`,
		);
		expectError(
			await post('/group/updateParticipants', { groupjid: g.jid, action: 'approve', participants: [CONTACT2] }, member),
			500,
			`only admins of group ${g.jid} can approve join requests`,
		);
		expectError(await post('/group/updateParticipants', { groupjid: g.jid, action: 'kick', participants: [CONTACT] }), 400, /^action must be one of: "add", "remove", "promote", "demote", "approve", "reject"/);
		expectError(await post('/group/updateParticipants', { groupjid: g.jid, action: 'add', participants: [] }), 400, 'participants must have at least 1 items');
		expectError(await post('/group/updateParticipants', { groupjid: g.jid, action: 'add', participants: ['12'] }), 400, /^participants\[0\] must be an international phone number/);
		expectError(await post('/group/updateParticipants', { groupjid: g.jid, participants: [CONTACT] }), 400, 'action is required');
		expectError(await post('/group/updateParticipants', { groupjid: '120363000000000009@g.us', action: 'add', participants: [CONTACT] }), 500, 'group 120363000000000009@g.us does not exist');
	});
});

describe('join requests (sandbox) with approve and reject', () => {
	const key = ADMIN_KEY;

	test('with approval on, a contact and a device ask to join; admins see, approve and reject the requests', async () => {
		const g = await newGroup('Approval');
		const setting = await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true }, { key });
		expect(setting.status).toBe(200);
		expect(setting.body.data.joinApprovalMode).toBe(true);
		expect((await info(g.jid, member)).joinApprovalMode).toBe(true);

		const asked = await sandbox.post('/groups/join', { number: CONTACT2, invitecode: g.inviteLink }, { key });
		expect(asked.body.data).toEqual({ jid: g.jid, number: CONTACT2, status: 'pending' });
		const deviceAsked = await post('/group/join', { invitecode: g.inviteCode }, outsider);
		expect(deviceAsked.body.data).toMatchObject({ status: 'pending', size: 3 });
		expect((await listOf(outsider)).map((x) => x.jid)).not.toContain(g.jid);
		await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'request'));

		const requests = (await info(g.jid, owner, { getRequestsParticipants: true })).pendingRequests;
		expect(requests.map((r: any) => r.jid)).toEqual([jidOf(CONTACT2), outsider.jid]);
		expect(requests[0]).toEqual({ jid: jidOf(CONTACT2), phone: CONTACT2, requestedAt: expect.any(Number) });

		const approved = await post('/group/updateParticipants', { groupjid: g.jid, action: 'approve', participants: [outsider.phone, '5511900000005'] });
		expect(approved.body.data.results).toEqual([
			{ jid: outsider.jid, ok: true, status: 200, error: null },
			{ jid: jidOf('5511900000005'), ok: false, status: 404, error: 'no pending join request from this number' },
		]);
		expect((await listOf(outsider)).map((x) => x.jid)).toContain(g.jid);
		const rejected = await post('/group/updateParticipants', { groupjid: g.jid, action: 'reject', participants: [CONTACT2] });
		expect(rejected.body.data.results[0]).toEqual({ jid: jidOf(CONTACT2), ok: true, status: 200, error: null });
		expect(participant(rejected.body.data, CONTACT2)).toBeUndefined();
		expect((await info(g.jid, owner, { getRequestsParticipants: true })).pendingRequests).toEqual([]);
	});

	test('contacts join directly without approval, and leave', async () => {
		const g = await newGroup('Drop-in');
		const joined = await sandbox.post('/groups/join', { number: jidOf(CONTACT2), groupjid: g.jid }, { key });
		expect(joined.body.data).toEqual({ jid: g.jid, number: CONTACT2, status: 'joined' });
		expect(participant(await info(g.jid), CONTACT2)).toBeDefined();
		const left = await sandbox.post('/groups/leave', { number: CONTACT2, groupjid: g.jid }, { key });
		expect(left.body.data).toEqual({ jid: g.jid, number: CONTACT2, left: true });
		expect(participant(await info(g.jid), CONTACT2)).toBeUndefined();
		await eventually(() =>
			receiver.events('groups').find((h) => h.body.data.jid === g.jid && h.body.data.action === 'leave' && h.body.data.author === jidOf(CONTACT2)),
		);
	});

	test('sandbox mistakes are 400s and 404s', async () => {
		const g = await newGroup('Sandboxed');
		expect(await sandbox.post('/groups/join', { number: member.phone, groupjid: g.jid }, { key })).toMatchObject({ status: 400 });
		expect(await sandbox.post('/groups/join', { number: ABSENT, groupjid: g.jid }, { key })).toMatchObject({
			status: 400,
			body: { message: `number ${ABSENT} is not on the network` },
		});
		expect(await sandbox.post('/groups/join', { number: CONTACT2 }, { key })).toMatchObject({
			status: 400,
			body: { message: 'invitecode give exactly one of invitecode and groupjid' },
		});
		expect(await sandbox.post('/groups/join', { number: CONTACT2, groupjid: '120363000000000001@g.us' }, { key })).toMatchObject({ status: 404 });
		expect(await sandbox.post('/groups/join', { number: CONTACT2, invitecode: 'AAAAAAAAAAAA' }, { key })).toMatchObject({ status: 404 });
		expect(await sandbox.post('/groups/leave', { number: CONTACT2, groupjid: g.jid }, { key })).toMatchObject({
			status: 400,
			body: { message: `number: ${CONTACT2} is not a participant of group ${g.jid}` },
		});
		expect(await sandbox.post('/groups/settings', { groupjid: g.jid }, { key })).toMatchObject({ status: 400 });
		expect(await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true })).toMatchObject({ status: 401 });
	});

	test('another user acts on a group by JID only once one of its connected devices is a participant', async () => {
		const other = server.services.store.users.create('g-other', undefined, 'subscriber').apiKey;
		const theirs = await connectedDevice(server, 'g-other-phone', other, '5511970000042');
		const g = await newGroup('Not theirs');
		const refused = `group ${g.jid}: none of your connected devices is a participant`;
		expectError(await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true }, { key: other }), 403, refused);
		expectError(await sandbox.post('/groups/join', { number: CONTACT2, groupjid: g.jid }, { key: other }), 403, refused);
		expectError(await sandbox.post('/groups/leave', { number: CONTACT, groupjid: g.jid }, { key: other }), 403, refused);
		const after = await info(g.jid);
		expect(after.joinApprovalMode).toBe(false);
		expect(participant(after, CONTACT2)).toBeUndefined();
		expect(participant(after, CONTACT)).toBeDefined();
		// An unknown group stays a 404; an invite code is a capability of its own.
		expect(await sandbox.post('/groups/settings', { groupjid: '120363000000000001@g.us', joinApprovalMode: true }, { key: other })).toMatchObject({ status: 404 });
		const invited = await sandbox.post('/groups/join', { number: CONTACT2, invitecode: g.inviteCode }, { key: other });
		expect(invited.body.data).toEqual({ jid: g.jid, number: CONTACT2, status: 'joined' });

		// Their device in the group: now they play their contacts there, but only an admin device changes a setting (as on the gateway).
		expect((await post('/group/updateParticipants', { groupjid: g.jid, action: 'add', participants: [theirs.phone] })).status).toBe(200);
		const notAdmin = `only admins of group ${g.jid} can change whether new participants need approval`;
		expectError(await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true }, { key: other }), 403, notAdmin);
		expect((await info(g.jid)).joinApprovalMode).toBe(false);
		expect(await sandbox.post('/groups/leave', { number: CONTACT2, groupjid: g.jid }, { key: other })).toMatchObject({ status: 200 });
		// Promoted, it may.
		expect((await post('/group/updateParticipants', { groupjid: g.jid, action: 'promote', participants: [theirs.phone] })).status).toBe(200);
		expect(await sandbox.post('/groups/settings', { groupjid: g.jid, joinApprovalMode: true }, { key: other })).toMatchObject({ status: 200 });
		expect((await info(g.jid)).joinApprovalMode).toBe(true);
	});
});

describe('group messages across devices and from contacts (sandbox inbound)', () => {
	test('a contact writes in the group: every member device on the server receives it', async () => {
		const g = await newGroup('Inbound', [member.phone, CONTACT]);
		const res = await sandbox.post(`/devices/${owner.name}/inbound`, { from: CONTACT, group: g.jid, text: 'hello group', senderName: 'Ana' }, { key: ADMIN_KEY });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ chatid: g.jid, sender: jidOf(CONTACT), senderName: 'Ana', isGroup: true, fromMe: false, text: 'hello group' });
		const copy = await post('/message/find', { id: res.body.data.messageid }, member);
		expect(copy.body.data.messages[0]).toMatchObject({ chatid: g.jid, sender: jidOf(CONTACT), isGroup: true, text: 'hello group' });
		await eventually(() => receiver.events('messages').find((h) => h.body.data.messageid === res.body.data.messageid));
		// The member replies in the group, quoting it: the owner gets the reply with the quote of its own copy.
		const reply = await post('/send/text', { number: g.jid, text: 'hi Ana', replyid: copy.body.data.messages[0].id }, member);
		expect(reply.status).toBe(200);
		const ownerCopy = await post('/message/find', { id: reply.body.data.messageid });
		expect(ownerCopy.body.data.messages[0]).toMatchObject({ chatid: g.jid, sender: member.jid, quoted: res.body.data.id });
	});

	test('the sender must be a participant allowed to write; the device must be a member', async () => {
		const g = await newGroup('Inbound checks', [member.phone, CONTACT]);
		const key = ADMIN_KEY;
		expect(await sandbox.post(`/devices/${owner.name}/inbound`, { from: CONTACT2, group: g.jid, text: 'x' }, { key })).toMatchObject({
			status: 400,
			body: { message: `from: group ${g.jid} does not exist or ${CONTACT2} is not a member` },
		});
		expect(await sandbox.post(`/devices/${outsider.name}/inbound`, { from: CONTACT, group: g.jid, text: 'x' }, { key })).toMatchObject({
			status: 400,
			body: { message: `group: device '${outsider.name}' is not a member of group ${g.jid}` },
		});
		await post('/group/updateAnnounce', { groupjid: g.jid, announce: true });
		expect(await sandbox.post(`/devices/${owner.name}/inbound`, { from: CONTACT, group: g.jid, text: 'x' }, { key })).toMatchObject({
			status: 400,
			body: { message: `from: only admins can send messages to group ${g.jid} (announce is on)` },
		});
		expect(await sandbox.post(`/devices/${owner.name}/inbound`, { from: CONTACT, group: CONTACT, text: 'x' }, { key })).toMatchObject({ status: 400 });
	});
});
