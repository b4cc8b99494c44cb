import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, type Client, type Device } from '../helpers/server';
import { gatewayWithDevice, nodeRunner } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** Every WDM Community operation run by n8n's engine against a live server, with the state read back. */

const CONTACT = '5511930000001';

let server: App;
let api: Client;
let owner: Device;
let member: Device;
let harness: N8nTestHarness;

const community = nodeRunner('CUSTOM.wdmCommunity', () => harness);

const info = async (jid: string, device: Device = owner) => (await api.post('/group/info', { groupjid: jid }, { token: device.token })).body.data;

async function newGroup(name: string) {
	const res = await api.post('/group/create', { name, participants: [member.phone, CONTACT] }, { token: owner.token });
	expect(res.status).toBe(200);
	return res.body.data.jid as string;
}

const groupsOf = (jids: string[]) => ({ values: jids.map((groupjid) => ({ groupjid })) });

beforeAll(async () => {
	({ server, api, shop: owner, harness } = await gatewayWithDevice('nc-owner', '5511950000001'));
	member = await connectedDevice(server, 'nc-member', ADMIN_KEY, '5511950000002');
});
afterAll(() => server.close());

test('create: a community with its announcement group, listed by the device', async () => {
	const run = await community({ operation: 'create', name: 'Parents' });
	expect(run.error).toBeUndefined();
	const c = run.items[0].json as any;
	expect(c).toMatchObject({ name: 'Parents', isCommunity: true, groups: [], owner: owner.jid });
	expect(await info(c.jid)).toMatchObject({ isCommunity: true, announcementGroup: c.announcementGroup });
	expect(await info(c.announcementGroup)).toMatchObject({ isCommunityAnnounce: true, community: c.jid, announce: true });

	const empty = await community({ operation: 'create', name: ' ' });
	expect(empty.error).toMatchObject({ name: 'NodeApiError', httpCode: '400', message: 'name must be at least 1 characters long' });
});

test('edit groups: add typed-in and mapped groups, then remove one; results per group', async () => {
	const c = (await community({ operation: 'create', name: 'School' })).items[0].json as any;
	const [a, b, extra] = [await newGroup('Class A'), await newGroup('Class B'), await newGroup('Class C')];
	const added = await community(
		{ operation: 'editGroups', community: c.jid, groupAction: 'add', groups: { values: [{ groupjid: a }, { groupjid: '={{ $json.more }}' }] } },
		{ input: [{ json: { more: [b, extra] } }] },
	);
	expect(added.error).toBeUndefined();
	expect(added.items[0].json.results).toEqual([a, b, extra].map((jid) => ({ jid, ok: true, status: 200, error: null })));
	expect((await info(c.jid)).groups.map((g: any) => g.name)).toEqual(['Class A', 'Class B', 'Class C']);
	expect((await info(b, member)).community).toBe(c.jid);
	// The member device of the linked groups reads the community's announcements.
	expect((await info(c.announcementGroup, member)).participants.map((p: any) => p.phone)).toContain(member.phone);

	const removed = await community({ operation: 'editGroups', community: c.jid, groupAction: 'remove', groups: groupsOf([extra, extra]) });
	expect(removed.items[0].json.results).toEqual([{ jid: extra, ok: true, status: 200, error: null }]);
	expect((await info(c.jid)).groups.map((g: any) => g.jid)).toEqual([a, b]);
	const again = await community({ operation: 'editGroups', community: c.jid, groupAction: 'remove', groups: groupsOf([extra]) });
	expect(again.items[0].json.results).toEqual([{ jid: extra, ok: false, status: 404, error: 'not a group of this community' }]);
});

test('errors: not a community, no groups, a bad JID; continueRegularOutput keeps the other items', async () => {
	const plain = await newGroup('Plain');
	const notCommunity = await community({ operation: 'editGroups', community: plain, groupAction: 'add', groups: groupsOf([plain]) });
	expect(notCommunity.error).toMatchObject({ httpCode: '500', message: `${plain} is not a community` });
	const none = await community({ operation: 'editGroups', community: plain, groupAction: 'add', groups: {} });
	expect(none.error).toMatchObject({ httpCode: '400', message: 'groupjids must have at least 1 items' });
	const bad = await community({ operation: 'editGroups', community: plain, groupAction: 'add', groups: groupsOf(['nope']) });
	expect(bad.error).toMatchObject({ httpCode: '400', message: 'groupjids[0] must be a group JID such as 120363012345678901@g.us' });

	const c = (await community({ operation: 'create', name: 'Mixed' })).items[0].json as any;
	const run = await community(
		{ operation: 'editGroups', community: '={{ $json.community }}', groupAction: 'add', groups: groupsOf([plain]) },
		{ input: [{ json: { community: c.jid } }, { json: { community: plain } }], onError: 'continueRegularOutput' },
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.results).toEqual([{ jid: plain, ok: true, status: 200, error: null }]);
	expect(run.items[1].json).toEqual({ error: `${plain} is not a community` });
});
