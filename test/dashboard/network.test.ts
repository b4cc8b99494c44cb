import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { ADMIN_KEY, SANDBOX, client, connectedDevice, startGateway } from '../helpers/server';
import type { App } from '../../server/src/app';

/**
 * The dashboard's Network panel in headless Chromium (issue 38): a device's account kind, limits, quality,
 * restriction and opt-outs, following what happens from outside the page (the test sends and writes as a
 * contact over HTTP), and the owner's actions (clear an opt-out, change the account kind).
 */

const ROOT = path.join(__dirname, '..', '..');
const CONTACT = '5521987650001';

let server: App;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	execFileSync(process.execPath, [path.join(ROOT, 'server', 'dashboard', 'build.mjs')], { stdio: 'inherit' });
	({ server } = await startGateway({ networkRestrictionMs: 3_600_000 }));
	browser = await launchBrowser();
	page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
	await browser?.close();
	await server?.close();
});

test("the Network panel shows the device's account, limits, quality, restriction and opt-outs, live; the owner clears an opt-out and changes the account", async () => {
	const device = await connectedDevice(server, 'shop');
	const api = client(server.url);
	const sandbox = client(server.url, SANDBOX);
	await page.goto(`${server.url}/dashboard`);
	await page.getByLabel('API key').fill(ADMIN_KEY);
	await page.getByRole('button', { name: 'Sign in' }).click();
	const panel = page.getByRole('region', { name: 'Network of shop' });
	await panel.getByLabel('account').filter({ hasText: 'business' }).waitFor();
	await panel.getByLabel('limits').filter({ hasText: '0 of 100000 new conversations in 24 h; rate none' }).waitFor();
	await panel.getByLabel('quality').filter({ hasText: 'high score 100, 0 blocked, 0 reported' }).waitFor();
	await panel.getByLabel('restriction').filter({ hasText: 'none' }).waitFor();

	// A contact answers STOP (from outside the page): the opt-out shows, and a send to them is refused.
	expect((await sandbox.post('/devices/shop/inbound', { from: CONTACT, text: 'STOP' }, { key: ADMIN_KEY })).status).toBe(200);
	const optOut = panel.getByRole('row', { name: `Opt-out of +${CONTACT}` });
	await optOut.getByText('"STOP"').waitFor();
	expect((await api.post('/send/text', { number: CONTACT, text: 'hi' }, { token: device.token })).status).toBe(422);
	await optOut.getByRole('button', { name: 'Clear' }).click();
	await panel.getByText('No contact opted out').waitFor();
	expect((await sandbox.get('/devices/shop/network/opt-outs', { key: ADMIN_KEY })).body.data).toEqual([]);

	// Every contact reports the device: its quality falls to low and it is restricted.
	expect((await sandbox.call('PUT', '/devices/shop/network', { reportRate: 1 }, { key: ADMIN_KEY })).status).toBe(200);
	for (let i = 0; i < 15; i++) {
		expect((await api.post('/send/text', { number: `55219876500${String(10 + i)}`, text: 'offer' }, { token: device.token })).status).toBe(200);
	}
	await panel.getByLabel('quality').filter({ hasText: 'low score 25, 0 blocked, 15 reported' }).waitFor();
	await panel.getByLabel('restriction').filter({ hasText: /^restricted until .+: only answers to contacts who wrote$/ }).waitFor();
	await panel.getByLabel('limits').filter({ hasText: '15 of 100000' }).waitFor();

	// The owner makes it an ordinary account: its limits follow.
	await panel.getByRole('button', { name: 'Make ordinary' }).click();
	await panel.getByLabel('account').filter({ hasText: 'ordinary' }).waitFor();
	await panel.getByLabel('limits').filter({ hasText: '15 of 250 new conversations in 24 h; rate 1 a second, 20 a minute' }).waitFor();
	expect((await sandbox.get('/devices/shop/network', { key: ADMIN_KEY })).body.data.account).toBe('ordinary');
}, 120_000);
