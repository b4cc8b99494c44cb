import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, eventually, expectError, startGateway, type Client, type Device } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhooks';

/** Communities over real HTTP: create, link and unlink groups, the announcement group, and the refusals. */

const CONTACT = '5511910000001';

let server: App;
let api: Client;
let receiver: Receiver;
let owner: Device;
let member: Device;

beforeAll(async () => {
	({ server, api } = await startGateway());
	owner = await connectedDevice(server, 'c-owner', ADMIN_KEY, '5511980000001');
	member = await connectedDevice(server, 'c-member', ADMIN_KEY, '5511980000002');
	receiver = await startReceiver();
	await api.post(`/devices/${member.name}/webhook`, { url: `${receiver.url}/member`, events: ['groups'] }, { key: ADMIN_KEY });
});
afterAll(async () => {
	await receiver.close();
	await server.close();
});

const post = (route: string, body: unknown, device: Device = owner) => api.post(route, body, { token: device.token });

async function community(name = 'Neighbourhood', device = owner) {
	const res = await post('/community/create', { name }, device);
	expect(res.status).toBe(200);
	return res.body.data;
}

async function group(name: string, device = owner, participants = [member.phone, CONTACT]) {
	const res = await post('/group/create', { name, participants }, device);
	expect(res.status).toBe(200);
	return res.body.data;
}

const info = async (jid: string, device = owner) => (await post('/group/info', { groupjid: jid }, device)).body.data;

describe('POST /community/create', () => {
	test('creates a community with its announcement group; the device is super admin of both', async () => {
		const c = await community('Residents');
		expect(c).toMatchObject({ name: 'Residents', isCommunity: true, isCommunityAnnounce: false, owner: owner.jid, groups: [], size: 1 });
		expect(c.jid).toMatch(/^120363\d{12}@g\.us$/);
		expect(c.inviteLink).toBe(`https://chat.whatsapp.com/${c.inviteCode}`);
		expect(c.participants).toEqual([{ jid: owner.jid, phone: owner.phone, isAdmin: true, isSuperAdmin: true }]);
		expect(c.announcementGroup).toMatch(/^120363\d{12}@g\.us$/);
		const announcement = await info(c.announcementGroup);
		expect(announcement).toMatchObject({ name: 'Residents', isCommunityAnnounce: true, community: c.jid, announce: true, locked: true });
		// Both show in the device's group list, and the community's info lists its groups.
		const list = (await api.get('/group/list', { token: owner.token })).body.data.map((g: any) => g.jid);
		expect(list).toEqual(expect.arrayContaining([c.jid, c.announcementGroup]));
		expect(await info(c.jid)).toMatchObject({ isCommunity: true, announcementGroup: c.announcementGroup, groups: [] });
	});

	test('bad input is a 400; a disconnected device cannot create communities', async () => {
		expectError(await post('/community/create', {}), 400, 'name is required');
		expectError(await post('/community/create', { name: 'x'.repeat(101) }), 400, 'name must be at most 100 characters long');
		expectError(await post('/community/create', { name: 'x', groups: [] }), 400, 'body has unknown field(s): groups');
		const created = await api.post('/devices', { name: 'c-offline' }, { key: ADMIN_KEY });
		expectError(await api.post('/community/create', { name: 'x' }, { token: created.body.data.token }), 500, /^device 'c-offline' is not connected/);
	});
});

describe('POST /community/editgroups', () => {
	test('add links groups (their members read the announcements), remove unlinks them; one result per group', async () => {
		const c = await community('Block A');
		const g1 = await group('Floor 1');
		const g2 = await group('Floor 2', owner, [CONTACT]);
		const added = await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [g1.jid, g2.jid.toUpperCase()] });
		expect(added.status).toBe(200);
		expect(added.body.data.results).toEqual([
			{ jid: g1.jid, ok: true, status: 200, error: null },
			{ jid: g2.jid, ok: true, status: 200, error: null },
		]);
		expect(added.body.data.groups).toEqual([
			{ jid: g1.jid, name: 'Floor 1' },
			{ jid: g2.jid, name: 'Floor 2' },
		]);
		expect((await info(g1.jid, member)).community).toBe(c.jid);
		// The member device of Floor 1 is now in the announcement group, where only admins write.
		const announcement = await info(c.announcementGroup, member);
		expect(announcement.participants.map((p: any) => p.phone)).toEqual(expect.arrayContaining([member.phone, CONTACT]));
		expectError(await post('/send/text', { number: c.announcementGroup, text: 'hi' }, member), 500, `only admins can send messages to group ${c.announcementGroup} (announce is on)`);
		const sent = await post('/send/text', { number: c.announcementGroup, text: 'Water off at 10' });
		expect(sent.status).toBe(200);
		expect((await post('/message/find', { id: sent.body.data.messageid }, member)).body.data.total).toBe(1);
		// A community takes no messages itself.
		expectError(await post('/send/text', { number: c.jid, text: 'hi' }), 500, `${c.jid} is a community: send to its announcement group ${c.announcementGroup}`);
		const link = await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === c.jid && h.body.data.action === 'link'));
		expect(link.body.data).toMatchObject({ author: owner.jid, groups: [g1.jid, g2.jid] });

		const removed = await post('/community/editgroups', { community: c.jid, action: 'remove', groupjids: [g2.jid, g2.jid] });
		expect(removed.body.data.results).toEqual([{ jid: g2.jid, ok: true, status: 200, error: null }]);
		expect(removed.body.data.groups).toEqual([{ jid: g1.jid, name: 'Floor 1' }]);
		expect((await info(g2.jid)).community).toBeNull();
		await eventually(() => receiver.events('groups').find((h) => h.body.data.jid === c.jid && h.body.data.action === 'unlink'));
	});

	test('per-group refusals: unknown, already linked, not an admin of it, communities and the announcement group', async () => {
		const c = await community('Block B');
		const other = await community('Block C');
		const mine = await group('Mine');
		const theirs = await group('Theirs', member, [owner.phone]);
		const elsewhere = await group('Elsewhere');
		await post('/community/editgroups', { community: other.jid, action: 'add', groupjids: [elsewhere.jid] });
		await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [mine.jid] });

		const unknown = '120363000000000077@g.us';
		const res = await post('/community/editgroups', {
			community: c.jid,
			action: 'add',
			groupjids: [mine.jid, unknown, theirs.jid, elsewhere.jid, other.jid, c.announcementGroup],
		});
		expect(res.body.data.results).toEqual([
			{ jid: mine.jid, ok: false, status: 409, error: 'already in this community' },
			{ jid: unknown, ok: false, status: 404, error: `group ${unknown} does not exist` },
			{ jid: theirs.jid, ok: false, status: 403, error: 'only admins of a group can add it to a community' },
			{ jid: elsewhere.jid, ok: false, status: 409, error: `already in community ${other.jid}` },
			{ jid: other.jid, ok: false, status: 403, error: 'a community or an announcement group cannot be added to a community' },
			{ jid: c.announcementGroup, ok: false, status: 403, error: 'a community or an announcement group cannot be added to a community' },
		]);
		const removed = await post('/community/editgroups', { community: c.jid, action: 'remove', groupjids: [c.announcementGroup, elsewhere.jid, unknown] });
		expect(removed.body.data.results).toEqual([
			{ jid: c.announcementGroup, ok: false, status: 403, error: 'the announcement group cannot be removed from its community' },
			{ jid: elsewhere.jid, ok: false, status: 404, error: 'not a group of this community' },
			{ jid: unknown, ok: false, status: 404, error: `group ${unknown} does not exist` },
		]);
		expect((await info(c.jid)).groups).toEqual([{ jid: mine.jid, name: 'Mine' }]);
	});

	test('network refusals: not a community, unknown, not a participant or not an admin of it', async () => {
		const c = await community('Block D');
		const g = await group('Plain');
		expectError(await post('/community/editgroups', { community: g.jid, action: 'add', groupjids: [g.jid] }), 500, `${g.jid} is not a community`);
		expectError(
			await post('/community/editgroups', { community: '120363000000000088@g.us', action: 'add', groupjids: [g.jid] }),
			500,
			'group 120363000000000088@g.us does not exist',
		);
		expectError(await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [g.jid] }, member), 500, `this device is not a participant of group ${c.jid}`);
		// Joined by the community's invite, the member takes part in it but is no admin.
		expect((await post('/group/join', { invitecode: c.inviteLink }, member)).body.data.status).toBe('joined');
		expect((await info(c.announcementGroup, member)).participants.map((p: any) => p.phone)).toContain(member.phone);
		expectError(await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [g.jid] }, member), 500, `only admins of group ${c.jid} can edit its groups`);
		expect((await info(c.jid)).groups).toEqual([]);
	});

	test('bad input is a 400 naming the field', async () => {
		const c = await community('Block F');
		expectError(await post('/community/editgroups', { action: 'add', groupjids: [c.jid] }), 400, 'community is required');
		expectError(await post('/community/editgroups', { community: 'abc', action: 'add', groupjids: [c.jid] }), 400, 'community must be a group JID such as 120363012345678901@g.us');
		expectError(await post('/community/editgroups', { community: c.jid, action: 'move', groupjids: [c.jid] }), 400, 'action must be one of: "add", "remove"');
		expectError(await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [] }), 400, 'groupjids must have at least 1 items');
		expectError(await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: [c.jid, 'x'] }), 400, 'groupjids[1] must be a group JID such as 120363012345678901@g.us');
		expectError(await post('/community/editgroups', { community: c.jid, action: 'add', groupjids: 'abc@g.us' }), 400, /^groupjids must be an array/);
	});
});
