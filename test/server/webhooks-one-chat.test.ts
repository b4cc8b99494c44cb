// Subscriptions for one chat and for a limited time: what WDM Send and Wait for Reply registers
// while a workflow waits for a contact's answer.
import { ADMIN_KEY, connectedDevice, eventually, expectError, gatewaySuite, type Device } from '../helpers/server';
import { sleep, verifySignature } from '../helpers/webhooks';

const key = ADMIN_KEY;
const suite = gatewaySuite();

const hook = (name: string) => `/devices/${name}/webhook`;

let seq = 0;
async function device(): Promise<Device> {
	return connectedDevice(suite.server, `one-chat-${++seq}`);
}

const alice = '5511977770001';
const bob = '5511977770002';

test('a one-chat subscription gets only that chat\'s events, signed, and shows its chat', async () => {
	const dev = await device();
	const path = `/${dev.name}/alice`;
	const res = await suite.api.post(hook(dev.name), { url: suite.receiver.url + path, events: ['messages'], chatid: alice }, { key });
	expect(res.status).toBe(200);
	expect(res.body.data).toMatchObject({ url: suite.receiver.url + path, chatid: `${alice}@s.whatsapp.net`, events: ['messages'] });
	expect(res.body.data).not.toHaveProperty('expiresAt');
	const secret = res.body.data.secret as string;

	await suite.sandbox.post(`/devices/${dev.name}/inbound`, { from: bob, text: 'from bob' }, { key });
	await suite.sandbox.post(`/devices/${dev.name}/inbound`, { from: alice, text: 'from alice' }, { key });
	const hit = await eventually(() => suite.receiver.onPath(path)[0]);
	expect(verifySignature(secret, hit)).toBe(true);
	expect(hit.body.data).toMatchObject({ chatid: `${alice}@s.whatsapp.net`, text: 'from alice', fromMe: false });
	// Bob's message went in before Alice's: had it been queued, it would have arrived first.
	const rows = suite.server.services.store.outbox.ofWebhook(res.body.data.id);
	expect(rows.map((r) => JSON.parse(r.body).data.text)).toEqual(['from alice']);

	const list = await suite.api.get(hook(dev.name), { key });
	expect(list.body.data).toEqual([expect.objectContaining({ id: res.body.data.id, chatid: `${alice}@s.whatsapp.net` })]);
});

test('events of no chat (connection) do not reach a one-chat subscription; an every-chat one gets them', async () => {
	const dev = await device();
	const one = `/${dev.name}/one`;
	const all = `/${dev.name}/all`;
	await suite.api.post(hook(dev.name), { url: suite.receiver.url + one, chatid: alice }, { key });
	await suite.api.post(hook(dev.name), { url: suite.receiver.url + all }, { key });
	expect((await suite.api.post(`/devices/${dev.name}/logout`, undefined, { key })).status).toBe(200);
	await eventually(() => suite.receiver.events('connection', all).length);
	expect(suite.receiver.onPath(one)).toEqual([]);
});

test('an expiring subscription receives nothing after its time and is then deleted', async () => {
	const dev = await device();
	const path = `/${dev.name}/expiring`;
	const expiresAt = Date.now() + 400;
	const res = await suite.api.post(hook(dev.name), { url: suite.receiver.url + path, chatid: alice, expiresAt }, { key });
	expect(res.status).toBe(200);
	expect(res.body.data.expiresAt).toBe(expiresAt);

	await suite.sandbox.post(`/devices/${dev.name}/inbound`, { from: alice, text: 'in time' }, { key });
	await eventually(() => suite.receiver.onPath(path).length);
	await sleep(Math.max(0, expiresAt - Date.now()) + 50);
	await suite.sandbox.post(`/devices/${dev.name}/inbound`, { from: alice, text: 'too late' }, { key });
	expect(suite.server.services.store.outbox.ofWebhook(res.body.data.id).map((r) => JSON.parse(r.body).data.text)).toEqual(['in time']);

	// Listing deletes it: no subscription is left behind.
	expect((await suite.api.get(hook(dev.name), { key })).body.data).toEqual([]);
	expect(suite.server.services.store.webhooks.byId(res.body.data.id)).toBeUndefined();
});

test('deleting a one-chat subscription by URL leaves the device\'s other subscriptions', async () => {
	const dev = await device();
	const url = `${suite.receiver.url}/${dev.name}/mine`;
	const other = `${suite.receiver.url}/${dev.name}/other`;
	await suite.api.post(hook(dev.name), { url, chatid: alice }, { key });
	await suite.api.post(hook(dev.name), { url: other }, { key });
	const deleted = await suite.api.post(hook(dev.name), { action: 'delete', url }, { key });
	expect(deleted.body.data).toMatchObject({ url, deleted: true });
	expect((await suite.api.get(hook(dev.name), { key })).body.data).toEqual([expect.objectContaining({ url: other })]);
	expectError(await suite.api.post(hook(dev.name), { action: 'delete', url }, { key }), 404, /no webhook/);
});

test('bad input: a chat that is no number or JID, an expiry in the past or not a number; nothing is written', async () => {
	const dev = await device();
	const url = `${suite.receiver.url}/${dev.name}/bad`;
	expectError(await suite.api.post(hook(dev.name), { url, chatid: 'alice' }, { key }), 400, /^chatid must be an international phone number/);
	expectError(await suite.api.post(hook(dev.name), { url, expiresAt: Date.now() - 1000 }, { key }), 400, 'expiresAt: must be in the future (epoch milliseconds)');
	expectError(await suite.api.post(hook(dev.name), { url, expiresAt: 'soon' }, { key }), 400, /expiresAt/);
	expect((await suite.api.get(hook(dev.name), { key })).body.data).toEqual([]);
});
