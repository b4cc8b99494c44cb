// n8n's editor in a browser, as a new user meets the package (docs/usage.md): headless Chromium (Debian's,
// driven by playwright-core) on the real n8n of the e2e, with the package installed as n8n's installer does,
// against the reference server in this process. The owner account comes from n8n's REST API; everything
// else goes through the page: the node panel, the credential dialog and its test, a workflow built node by
// node with the Device picker and a send to a new number, a trigger's test event, publishing, examples
// imported from file. `WDM_SCREENSHOTS=1` (`npm run docs:screenshots`) also writes the pictures of
// docs/usage.md into docs/screenshots/. `WDM_PACKAGE_CHECKOUT=DIR` installs another checkout's package (and
// imports its examples): the suite run on an older revision, in a git worktree.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { App } from '../../server/src/app';
import { launchBrowser } from '../helpers/browser';
import { NODE_TYPES } from '../helpers/nodes';
import { ADMIN_KEY, SANDBOX, client, connectedDevice, eventually, startServer } from '../helpers/server';
import {
	addNode,
	allSucceeded,
	canvasNode,
	canvasNodeNames,
	closeCredentialDialog,
	closeLeftovers,
	closeNdv,
	credentialDialog,
	credentialExpression,
	fillCredential,
	importWorkflowFile,
	loadEditor,
	locator,
	newCredential,
	newWorkflow,
	nodeActions,
	nodeItem,
	openNode,
	paste,
	pickFromList,
	pickOption,
	runWorkflow,
	saveCredential,
	screenshot,
	showCanvas,
	searchNodes,
	signIn,
} from './editor';
import { ensureN8n } from './n8n';
import { n8nWithPackage, type N8nServer } from './n8n-server';

jest.setTimeout(120_000);

const CHECKOUT = process.env.WDM_PACKAGE_CHECKOUT ?? path.join(__dirname, '..', '..');
const EXAMPLES = path.join(CHECKOUT, 'examples');

const nodes = Object.values(NODE_TYPES).map((node) => node.description);
/** The gateway's nodes (the messaging ones): those with a gateway credential, not the site's. */
const messagingNodes = nodes.filter((node) => node.credentials?.some((credential) => credential.name !== 'wdmSiteApi')).map((node) => node.displayName);

let server: App;
let dir: string;
let n8n: N8nServer;
let rest: Awaited<ReturnType<N8nServer['setupOwner']>>;
let browser: Browser;
let page: Page;
let gateway: string;

beforeAll(async () => {
	await ensureN8n();
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-editor-'));
	n8n = await n8nWithPackage(dir, { checkout: CHECKOUT });
	server = await startServer();
	gateway = `${server.url}/wp-json/wdm/v1`;
	await n8n.start();
	rest = await n8n.setupOwner();
	browser = await launchBrowser();
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: n8n.url }); // paste()
	page = await context.newPage();
	page.setDefaultTimeout(45_000); // the editor's first load of a view (its code) under load
	page.setDefaultNavigationTimeout(60_000); // a load of the editor: 12-20 s on a busy machine
	await signIn(page, n8n.url);
	await loadEditor(page, n8n.url);
}, 20 * 60_000);

beforeEach(() => closeLeftovers(page, n8n.url));

afterAll(async () => {
	await browser?.close();
	await n8n?.stop();
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The names of `expected` that `listed` lacks (a short failure message where the lists are long). */
const missing = (expected: string[], listed: string[]) => expected.filter((name) => !listed.includes(name));

/** A device of the admin user as the gateway lists it (with its token). */
async function deviceNamed(name: string): Promise<{ name: string; status: string; token: string } | undefined> {
	const { body } = await client(server.url).get('/devices', { key: ADMIN_KEY });
	return body.data.find((device: { name: string }) => device.name === name);
}

describe('node panel', () => {
	beforeAll(async () => newWorkflow(page));

	test('"WDM" lists every WDM node, each with its icon', async () => {
		const expected = nodes.map((node) => node.displayName);
		expect(missing(expected, await searchNodes(page, 'WDM', expected))).toEqual([]);
		for (const name of expected) {
			const icon = nodeItem(page, name).locator('img').first();
			expect(await icon.getAttribute('src')).toContain('/icons/n8n-nodes-wdm/');
			expect(await icon.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0)).toBe(true);
		}
	});

	test('"whatsapp" lists the messaging nodes', async () => {
		expect(missing(messagingNodes, await searchNodes(page, 'whatsapp', messagingNodes))).toEqual([]);
	});

	test('a WDM node lists its actions; picking one adds a node named after the action', async () => {
		expect(missing(['Send a text message', 'Send a media message', 'Find messages'], await nodeActions(page, 'WDM Message'))).toEqual([]);
		await screenshot(page, 'editor-actions');
		await page.getByTestId('node-creator').getByTestId('node-creator-item-name').getByText('Send a text message', { exact: true }).click();
		await closeNdv(page);
		expect(await canvasNodeNames(page)).toContain('Send a text message');
	});
});

test("a new send's Chat starts on a mode to type a number into", async () => {
	await newWorkflow(page);
	// A node as n8n adds it, with the defaults of every field but the operation; pasted, so that this
	// check does not depend on the node panel's actions.
	await paste(page, { nodes: [{ name: 'Send', type: 'n8n-nodes-wdm.wdmMessage', typeVersion: 1, position: [0, 0], parameters: { operation: 'sendText' } }], connections: {} });
	const chat = locator(await openNode(page, 'Send'), 'number');
	expect(await chat.mode.inputValue()).not.toBe('From list');
	expect(await chat.input.isEditable()).toBe(true);
	await closeNdv(page);
});

test("the credential dialog's test: the server's reason for a wrong key, success for the right one", async () => {
	// The guide's WDM User API credential, which the workflows below use (chosen by n8n, bound by name).
	const dialog = await newCredential(page, 'WDM User API');
	await fillCredential(dialog, { baseUrl: gateway, apiKey: 'wdm_wrong_key_0123456789' });
	const refused = await saveCredential(dialog);
	expect(refused).toContain('Couldn’t connect with these settings');
	expect(refused).toMatch(/invalid API key/i);
	await fillCredential(dialog, { apiKey: ADMIN_KEY });
	expect(await saveCredential(dialog)).toBe('success');
	// The name n8n proposes, the one the examples bind.
	expect(await dialog.getByTestId('credential-name').innerText()).toContain('WDM User account');
	await closeCredentialDialog(dialog);
});

test('the first workflow, as docs/usage.md builds it: create a device, pair it with the Device picker, send to a new number', async () => {
	await newWorkflow(page);
	// 1. Create a device (the credential: the one WDM User API credential, chosen by n8n).
	let view = await addNode(page, 'WDM Device', 'Create a device');
	await view.getByTestId('parameter-input-name').locator('input').fill('shop');
	await view.getByTestId('node-execute-button').click();
	await view.getByTestId('node-run-status-success').waitFor();
	// 2. Pair it: the operation changed to Get QR Code renames the node; the Device picker lists the devices.
	await pickOption(page, view, 'operation', 'Get QR Code');
	await page.getByTestId('node-title-container').getByTestId('inline-edit-preview').getByText('Get the QR code of a device').waitFor();
	expect(await pickFromList(page, view, 'device', 'shop')).toEqual([expect.stringContaining('shop')]);
	await view.getByTestId('node-execute-button').click();
	await view.getByTestId('node-run-status-success').waitFor();
	await closeNdv(page);
	// The simulated phone scans the QR code 20 ms after it is asked for.
	const shop = await eventually(async () => {
		const device = await deviceNamed('shop');
		return device?.status === 'connected' ? device : undefined;
	});
	// 3. Send to a new number: a WDM Instance API credential with the device's token, Chat typed in.
	view = await addNode(page, 'WDM Message', 'Send a text message', 'Get the QR code of a device');
	await view.getByText('Connect to WDM Instance').click();
	await fillCredential(credentialDialog(page), { baseUrl: gateway, token: shop.token });
	expect(await saveCredential(credentialDialog(page))).toBe('success');
	await locator(view, 'number').input.fill('5511999990001');
	await view.getByTestId('parameter-input-text').locator('textarea').fill('Hello from n8n');
	await closeNdv(page);

	const steps = ['When clicking ‘Execute workflow’', 'Get the QR code of a device', 'Send a text message'];
	expect(await runWorkflow(page, steps)).toEqual(allSucceeded(steps));
	await showCanvas(page);
	await screenshot(page, 'editor-first-workflow');
	const { body } = await client(server.url).post('/message/find', { limit: 5 }, { token: shop.token });
	expect(body.data.messages).toEqual([expect.objectContaining({ chatid: '5511999990001@s.whatsapp.net', text: 'Hello from n8n', fromMe: true })]);
});

test('the bot example: imported from file, a test event from the sandbox, published, it answers', async () => {
	const bot = await connectedDevice(server, 'bot-demo');
	await rest('POST', '/rest/credentials', { name: 'WDM bot device', type: 'wdmInstanceApi', data: { baseUrl: gateway, token: bot.token } });
	await importWorkflowFile(page, path.join(EXAMPLES, 'bot.json'));
	const sandbox = client(server.url, SANDBOX);
	const inbound = async (text: string) => expect((await sandbox.post(`/devices/${bot.name}/inbound`, { from: '5511988887777', text }, { key: ADMIN_KEY })).status).toBe(200);

	// The canvas names the trigger's events as the Events field does, not by their values.
	await canvasNode(page, 'WDM Trigger').getByText('Messages', { exact: true }).waitFor();

	// "Test this trigger": the node listens, the sandbox's contact writes, the event shows as its output.
	const view = await openNode(page, 'WDM Trigger');
	await view.getByTestId('node-execute-button').click();
	await view.getByText('Listening for test event').waitFor();
	await inbound('do you deliver on sundays?');
	await view.getByTestId('node-run-status-success').waitFor();
	await view.getByTestId('radio-button-json').click();
	await view.getByTestId('output-panel').getByText('do you deliver on sundays?').waitFor();
	await screenshot(page, 'editor-bot-test-event');
	await closeNdv(page);

	// Published, it answers a question about the hours in the chat.
	await page.getByTestId('workflow-open-publish-modal-button').click();
	await page.getByTestId('workflow-publish-button').click();
	await page.getByTestId('workflow-open-publish-modal-button').getByText('Published').waitFor();
	await page.getByTestId('activation-modal').getByRole('button', { name: 'Got it' }).click();
	await inbound('what are your hours?');
	const answered = await eventually(async () => {
		const { body } = await client(server.url).post('/message/find', { track_source: 'hours-bot' }, { token: bot.token });
		return body.data.messages[0];
	}, 30_000);
	expect(answered).toMatchObject({ chatid: '5511988887777@s.whatsapp.net', text: 'We are open Monday to Saturday, 9:00 to 18:00.' });
	// The run that answered, in the workflow's Executions.
	await page.getByTestId('radio-button-executions').click();
	await canvasNode(page, 'Reply with Hours').getByTestId('canvas-node-status-success').waitFor();
	await screenshot(page, 'editor-bot-answered');
});

test("the onboarding example: Instance Token as an expression reading the Create a device node's answer (switched to Expression)", async () => {
	const dialog = await newCredential(page, 'WDM Instance API', 'WDM onboarding device');
	await fillCredential(dialog, { baseUrl: gateway });
	await credentialExpression(dialog, 'token', "{{ $('Create a device').first().json.token }}");
	await screenshot(page, 'editor-instance-token-expression');
	// n8n does not test a credential with an expression in a field: it resolves only in a workflow's run.
	expect(await saveCredential(dialog, 5000)).toBe('untested');
	await closeCredentialDialog(dialog);

	const file = path.join(EXAMPLES, 'onboarding.json');
	await importWorkflowFile(page, file);
	const steps = (JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Array<{ name: string; type: string }> }).nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.map((node) => node.name);
	expect(await runWorkflow(page, steps)).toEqual(allSucceeded(steps));
	const device = await deviceNamed('onboarding-demo');
	const greetings = await client(server.url).post('/message/find', { track_source: 'onboarding' }, { token: device!.token });
	expect(greetings.body.data.messages.length).toBeGreaterThan(0);
});
