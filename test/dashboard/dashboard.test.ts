import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { ADMIN_KEY, SANDBOX, client, startGateway } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhooks';
import type { App } from '../../server/src/app';

/**
 * The sandbox dashboard in headless Chromium, against a live server: every step goes through the page
 * (Playwright's locators wait for what the page shows), except what "someone else" does, which comes
 * over HTTP from the test so that the page can only learn it from its live event stream.
 * `WDM_SCREENSHOTS=1` also writes the main views to docs/screenshots/ (committed for the README).
 */

const ROOT = path.join(__dirname, '..', '..');
const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const CONTACT = '5521987650000';

let server: App;
let receiver: Receiver;
let browser: Browser;
let page: Page;
/** What the webhook receiver answers; the test turns it from failing to working. */
let answer = 400;

beforeAll(async () => {
	// CI runs the tests without `npm run build`: the bundle the server serves is built here, the same way.
	execFileSync(process.execPath, [path.join(ROOT, 'server', 'dashboard', 'build.mjs')], { stdio: 'inherit' });
	// Retries far apart: an event refused for a while shows its next retry for the rest of the test.
	({ server } = await startGateway({ webhookBackoffMs: 600_000, webhookMaxBackoffMs: 600_000 }));
	receiver = await startReceiver(() => answer);
	browser = await launchBrowser();
	page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
	await browser?.close();
	await receiver?.close();
	await server?.close();
});

const shot = async (name: string) => {
	if (process.env.WDM_SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

/** As a contact on the network, from outside the page. */
const sandbox = () => client(server.url, SANDBOX);
const writeAsContact = async (text: string) => {
	const res = await sandbox().post('/devices/shop/inbound', { from: CONTACT, text }, { key: ADMIN_KEY });
	expect(res.status).toBe(200);
};

test('sign in, pair a device by its QR code, watch a chat live, answer as the contact, replay a failed webhook delivery', async () => {
	// The page works under its Content-Security-Policy: nothing it needs is refused.
	const refused: string[] = [];
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
	});
	const opened = await page.goto(`${server.url}/dashboard`);
	expect(opened?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

	// Signed out: only the sign-in form; a wrong key is refused with the server's sentence.
	await page.getByLabel('API key').fill('wdm_not_a_key');
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.getByRole('alert').filter({ hasText: 'invalid API key' }).waitFor();
	expect(await page.getByRole('heading', { name: 'Devices' }).count()).toBe(0);
	await shot('dashboard-sign-in');

	await page.getByLabel('API key').fill(ADMIN_KEY);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.getByRole('heading', { name: 'Devices' }).waitFor();
	await page.getByLabel('live updates').filter({ hasText: 'live' }).waitFor();

	// A device, its QR code, and the phone scanning it.
	await page.getByLabel('New device name').fill('shop');
	await page.getByRole('button', { name: 'Create device' }).click();
	const card = page.getByRole('listitem', { name: 'Device shop' });
	await card.getByLabel('status').filter({ hasText: 'disconnected' }).waitFor();
	await card.getByRole('button', { name: 'Connect (show QR code)' }).click();
	const qr = card.getByRole('img', { name: 'QR code of shop' });
	await qr.waitFor();
	expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
	expect(await qr.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);
	await card.getByLabel('status').filter({ hasText: 'connecting' }).waitFor();
	await shot('dashboard-devices');
	await card.getByRole('button', { name: 'Scan with the phone' }).click();
	await card.getByLabel('status').filter({ hasText: 'connected' }).waitFor();
	const device = (await client(server.url).get('/devices', { key: ADMIN_KEY })).body.data[0];
	expect({ name: device.name, status: device.status }).toEqual({ name: 'shop', status: 'connected' });
	await card.getByText(`+${device.phone}`).waitFor();

	// Webhooks first, so that what follows is delivered: the receiver refuses at first.
	await page.getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
	await page.getByRole('button', { name: 'Subscribe' }).click();
	const subscription = page.getByRole('article', { name: `Webhook ${receiver.url}/hook` });
	await subscription.waitFor();

	// A contact writes from outside the page: the chat appears live, with its unread count.
	await writeAsContact('Hello from a contact');
	const chat = page.getByRole('button', { name: `Chat with +${CONTACT}` });
	await chat.getByLabel('1 unread').waitFor();
	await chat.click();
	const conversation = page.getByLabel(`Conversation with +${CONTACT}`);
	await conversation.getByText('Hello from a contact').waitFor();
	await writeAsContact('Are you open today?');
	await conversation.getByText('Are you open today?').waitFor();
	await chat.getByLabel('2 unread').waitFor();

	// The device's owner labels the chat (through the gateway, from outside): the label shows on it.
	const api = client(server.url);
	const [label] = (await api.get('/labels', { token: device.token })).body.data;
	expect((await api.post('/chat/labels', { number: CONTACT, add_labelid: label.id }, { token: device.token })).status).toBe(200);
	await chat.getByText(label.name, { exact: true }).waitFor();

	// The device answers; the contact reads it, reacts, and starts typing.
	await conversation.getByLabel('Message from device').fill('Yes, until 6 pm');
	await conversation.getByRole('button', { name: 'Send from device' }).click();
	const answerBubble = conversation.getByRole('listitem').filter({ hasText: 'Yes, until 6 pm' });
	await answerBubble.getByText('· delivered').waitFor();
	await answerBubble.getByRole('button', { name: 'Read as contact' }).click();
	await answerBubble.getByText('· read').waitFor();
	await answerBubble.getByRole('button', { name: 'React 👍 as contact' }).click();
	await answerBubble.getByLabel('reactions').filter({ hasText: '👍' }).waitFor();
	await conversation.getByRole('button', { name: 'Start typing' }).click();
	await conversation.getByText('typing…').waitFor();
	await conversation.getByLabel('Message as contact').fill('Great, see you');
	await conversation.getByRole('button', { name: 'Send as contact' }).click();
	await conversation.getByText('Great, see you').waitFor();
	// Its message ends its typing.
	await conversation.getByRole('button', { name: 'Start typing' }).waitFor();
	expect(await conversation.getByText('typing…').count()).toBe(0);

	// The receiver refused the first message's delivery (400: final, no retry); it now accepts, and a replay delivers it.
	const messageRows = subscription.getByRole('row').filter({ has: page.getByRole('cell', { name: 'messages', exact: true }) });
	const failed = messageRows.filter({ hasText: 'failed' }).last();
	await failed.getByRole('cell', { name: '400', exact: true }).waitFor();
	answer = 200;
	const eventId = await failed.getByRole('cell').nth(1).textContent();
	await failed.getByRole('button', { name: 'Replay' }).click();
	await messageRows.filter({ hasText: eventId! }).filter({ hasText: 'delivered' }).waitFor();

	const log = await sandbox().get(`/devices/shop/webhook/${(await webhookId())}/deliveries`, { key: ADMIN_KEY });
	const sameEvent = log.body.data.filter((d: { eventId: string }) => d.eventId === eventId);
	expect(sameEvent.map((d: { state: string; lastStatus: number; attempts: number }) => [d.state, d.lastStatus, d.attempts])).toEqual([
		['delivered', 200, 1],
		['failed', 400, 1],
	]);
	const delivered = receiver.delivered.filter((hit) => hit.headers['webhook-id'] === eventId);
	expect(delivered.map((hit) => [hit.body.event, hit.body.data.text])).toEqual([['messages', 'Hello from a contact']]);

	// The stream drops (the server ends it): the page reconnects by itself, and follows again.
	server.app.eventStreams.closeAll();
	await page.getByLabel('live updates').filter({ hasText: 'reconnecting…' }).waitFor();
	await page.getByLabel('live updates').filter({ hasText: 'live' }).waitFor();

	// The receiver is down (503): the next message waits for its retry, and the log says when.
	answer = 503;
	await writeAsContact('Anyone there?');
	await conversation.getByText('Anyone there?').waitFor();
	const waiting = messageRows.filter({ hasText: 'pending' }).filter({ has: page.getByRole('cell', { name: '503', exact: true }) });
	await waiting.waitFor();
	const recent = (await sandbox().get(`/devices/shop/webhook/${await webhookId()}/deliveries?limit=5`, { key: ADMIN_KEY })).body.data;
	const pending = recent.find((d: { state: string }) => d.state === 'pending');
	expect(pending).toMatchObject({ event: 'messages', state: 'pending', attempts: 1, lastStatus: 503, payload: { data: { text: 'Anyone there?' } } });
	const nextRetry = await waiting.getByRole('cell').nth(6).textContent();
	expect(nextRetry).toBe(await page.evaluate((at: number) => new Date(at).toLocaleTimeString(), pending.nextAttemptAt));
	await shot('dashboard-webhooks');

	// Signing out forgets the key: the page shows nothing of the user's any more.
	await page.getByRole('button', { name: 'Sign out' }).click();
	await page.getByLabel('API key').waitFor();
	expect(await page.getByRole('heading', { name: 'Devices' }).count()).toBe(0);
	expect(refused).toEqual([]);
}, 120_000);

async function webhookId(): Promise<string> {
	const res = await client(server.url).get('/devices/shop/webhook', { key: ADMIN_KEY });
	return res.body.data[0].id;
}
