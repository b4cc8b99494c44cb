// n8n's editor driven as a user drives it, for the browser e2e (editor.test.ts): the node panel, the
// node details view (NDV), the credential dialog, import from file, runs. Selectors are n8n's own
// data-test-id attributes, the ones n8n's editor e2e tests use (packages/testing/playwright in n8n's repository).
import path from 'node:path';
import { selectors, type Locator, type Page } from 'playwright-core';
import { OWNER } from './n8n-server';

selectors.setTestIdAttribute('data-test-id');

/** Where `WDM_SCREENSHOTS=1` writes the editor's pictures for docs/usage.md (beside the dashboard's). */
const SCREENSHOTS = path.join(__dirname, '..', '..', 'docs', 'screenshots');

/** A picture of the page without n8n's notifications (they fade out by themselves, seconds later). */
export async function screenshot(page: Page, name: string) {
	if (!process.env.WDM_SCREENSHOTS) return;
	for (const close of await page.locator('.el-notification__closeBtn').all()) await close.click();
	await page.locator('.el-notification').first().waitFor({ state: 'detached' });
	await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), animations: 'disabled' }); // transitions at their end
}

/** The whole workflow in view, no node selected: for a picture of the canvas. */
export async function showCanvas(page: Page) {
	await page.getByTestId('zoom-to-fit').click();
	await page.getByTestId('canvas-wrapper').click({ position: { x: 10, y: 10 } });
}

/** Reads `read()` until `done` holds or `ms` pass; the last value either way, for the test to assert on. */
export async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
	const until = Date.now() + ms;
	let value = await read();
	while (!done(value) && Date.now() < until) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		value = await read();
	}
	return value;
}

export async function signIn(page: Page, url: string) {
	await page.goto(`${url}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
	await page.getByTestId('password').locator('input').fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/home\//);
}

/**
 * Opens a route of the editor inside the running app, as its own links do (a page load of the editor takes
 * 12-20 s on a busy 2-core machine, a move inside it 1-3 s), and waits for `ready`. n8n asks before
 * leaving a workflow with changes it has not saved yet (it saves them a few seconds after each).
 */
async function open(page: Page, route: string, ready: Locator) {
	const ask = page.getByRole('dialog', { name: 'Save changes before leaving?' });
	for (let attempt = 1; attempt <= 3; attempt++) {
		// The app's router (Vue's, on #app), as a link of the editor uses it; not awaited: n8n may ask first.
		await page.evaluate(`void document.querySelector('#app').__vue_app__.config.globalProperties.$router.push(${JSON.stringify(route)})`);
		if (!(await ready.or(ask).first().waitFor({ timeout: 15_000 }).then(() => true, () => false))) continue;
		if (!(await ask.isVisible())) break;
		// Saved, the workflow stays open (either answer keeps it open, and a first save moves it to its
		// own address): the way out is taken again.
		await ask.getByRole('button', { name: 'Save' }).click();
		await ask.waitFor({ state: 'hidden' });
	}
	await ready.waitFor();
}

/**
 * Loads the editor on a new workflow: after signing in, and when a dialog (the NDV, a credential's) is
 * still open, a failed test's leftovers. (The first move to a workflow from the home page, inside the app,
 * may never render the canvas.)
 */
export async function loadEditor(page: Page, url: string) {
	await page.goto(`${url}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor();
}

export async function closeLeftovers(page: Page, url: string) {
	const dialogs = page.locator('#app-modals').getByRole('dialog').locator('visible=true');
	if ((await dialogs.count()) + (await page.getByTestId('ndv').locator('visible=true').count()) > 0) await loadEditor(page, url);
}

/** A new workflow (n8n gives it its id at once). */
export async function newWorkflow(page: Page) {
	const before = page.url();
	await open(page, '/workflow/new', page.getByTestId('canvas-plus-button'));
	await page.waitForURL((url) => url.href !== before && !url.pathname.endsWith('/workflow/new'));
}

/** The names the node panel lists for `search`, once its list holds `expected` (or 10 s passed). */
export async function searchNodes(page: Page, search: string, expected: string[]): Promise<string[]> {
	if (!(await page.getByTestId('node-creator').isVisible())) await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(search);
	const names = page.getByTestId('node-creator').getByTestId('node-creator-item-name');
	return settled(() => names.allInnerTexts(), (listed) => expected.every((name) => listed.includes(name)));
}

/** The node panel's item for a node, found by its name. */
export const nodeItem = (page: Page, name: string) =>
	page.getByTestId('node-creator').getByTestId('item-iterator-item').filter({ has: page.getByTestId('node-creator-item-name').getByText(name, { exact: true }) });

/** What the node panel lists once a node is clicked: its actions (and the triggers n8n suggests with them); none if it has no actions. */
export async function nodeActions(page: Page, node: string): Promise<string[]> {
	await searchNodes(page, node, [node]);
	await nodeItem(page, node).click();
	// The node's panel: its actions under "Actions (n)"; a node without actions is added at once instead.
	const panel = page.getByTestId('node-creator').getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ });
	if (!(await panel.waitFor({ timeout: 5000 }).then(() => true, () => false))) return [];
	return page.getByTestId('node-creator').getByTestId('node-creator-item-name').allInnerTexts();
}

/**
 * Adds a node through the node panel as a user does: search its name, click it, pick the action; its
 * NDV opens. With `after`, the node goes after that one (its output's +); else after the selected node.
 */
export async function addNode(page: Page, node: string, action: string, after?: string) {
	if (after) await page.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${after}"] [data-test-id="canvas-handle-plus"]`).first().click();
	await nodeActions(page, node);
	await page.getByTestId('node-creator').getByTestId('node-creator-item-name').getByText(action, { exact: true }).click();
	return ndv(page);
}

export async function ndv(page: Page) {
	const view = page.getByTestId('ndv');
	await view.waitFor();
	return view;
}

export async function closeNdv(page: Page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

export async function openNode(page: Page, name: string) {
	await canvasNode(page, name).dblclick();
	return ndv(page);
}

export const canvasNode = (page: Page, name: string) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

export async function canvasNodeNames(page: Page): Promise<string[]> {
	return page.getByTestId('canvas-node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name') ?? ''));
}

/** Picks an option of an options parameter (`operation`, ...) by the start of its name. */
export async function pickOption(page: Page, view: Locator, parameter: string, option: string) {
	await view.getByTestId(`parameter-input-${parameter}`).click();
	await page.getByRole('option', { name: new RegExp(`^${option}`) }).click();
}

/** A resource locator's mode and its value input (`rlc-input`). */
export function locator(view: Locator, parameter: string) {
	const field = view.getByTestId(`resource-locator-${parameter}`);
	return { mode: field.getByTestId('rlc-mode-selector').locator('input'), input: field.getByTestId('rlc-input') };
}

/** Picks an entry of a resource locator's "From list" mode: the list the node's search method loads. */
export async function pickFromList(page: Page, view: Locator, parameter: string, entry: string) {
	const { mode, input } = locator(view, parameter);
	if ((await mode.inputValue()) !== 'From list') {
		await mode.click();
		await page.getByRole('option', { name: 'From list' }).click();
	}
	await input.click();
	const items = page.getByTestId('rlc-item');
	await items.first().waitFor();
	const listed = await items.allInnerTexts();
	await items.filter({ hasText: new RegExp(`^${entry}(\\s|$)`) }).click(); // its name, then details such as the status
	return listed;
}

/** The dialog of a credential, opened from a node's Credential field or the Credentials page. */
export const credentialDialog = (page: Page) => page.getByTestId('editCredential-modal');

/**
 * A new credential's dialog is ready once it shows the name n8n proposes: n8n sets the fields' defaults
 * right after it, over what was typed before.
 */
const credentialReady = (dialog: Locator) => dialog.getByTestId('credential-name').getByTestId('inline-edit-preview').filter({ hasText: /\S/ }).waitFor();

/** A new credential of `type` (its display name), as Create credential opens it, named `name` (else n8n's proposal). */
export async function newCredential(page: Page, type: string, name?: string) {
	await open(page, '/home/credentials/create', page.getByTestId('new-credential-type-button'));
	await page.getByRole('combobox', { name: 'Search for app...' }).fill(type);
	await page.getByTestId('new-credential-type-select-option').filter({ hasText: type }).click();
	await page.getByTestId('new-credential-type-button').click();
	const dialog = credentialDialog(page);
	await credentialReady(dialog);
	if (name) {
		await dialog.getByTestId('credential-name').click();
		await dialog.getByTestId('credential-name').getByTestId('inline-edit-input').fill(name);
		await dialog.getByTestId('credential-name').getByTestId('inline-edit-input').press('Enter');
	}
	return dialog;
}

export async function closeCredentialDialog(dialog: Locator) {
	await dialog.getByRole('button', { name: 'Close this dialog' }).click();
	await dialog.waitFor({ state: 'hidden' });
}

export async function fillCredential(dialog: Locator, fields: Record<string, string>) {
	await credentialReady(dialog);
	for (const [field, value] of Object.entries(fields)) await dialog.getByTestId(`parameter-input-${field}`).locator('input').fill(value);
}

/**
 * Switches a credential field to Expression (the Fixed/Expression toggle shown on hover) and enters
 * `expression`; waits for its preview to show the expression's value ("[empty]" before): the dialog then holds
 * the expression (saved earlier, the field would be saved empty).
 */
export async function credentialExpression(dialog: Locator, field: string, expression: string) {
	const container = dialog.getByTestId(field);
	await container.hover();
	await container.getByTestId('radio-button-expression').click();
	await container.getByTestId('inline-expression-editor-input').locator('.cm-content').fill(expression);
	await container.getByTestId(`parameter-expression-preview-${field}`).filter({ hasNotText: '[empty]' }).waitFor();
}

/**
 * Saves; n8n then tests the credential, but not while a field holds an expression. What the dialog shows
 * of the test: `success` (saved from a node, a successful test closes the dialog), on a failure the
 * dialog's text with its "More details" opened (the message n8n gives the user), or `untested` when no
 * test came within `testWithinMs`.
 */
export async function saveCredential(dialog: Locator, testWithinMs = 30_000): Promise<string> {
	const page = dialog.page();
	const saved = page.waitForResponse((res) => /\/rest\/credentials(\/\w+)?$/.test(res.url()) && ['POST', 'PATCH'].includes(res.request().method()));
	const tested = page.waitForResponse((res) => res.url().endsWith('/rest/credentials/test'), { timeout: testWithinMs }).then(
		() => true,
		() => false,
	);
	await dialog.getByTestId('credential-save-button').click();
	await saved;
	if (!(await tested)) return 'untested';
	const shown = await Promise.race([
		dialog.getByTestId('credentials-config-container-test-success').waitFor().then(() => 'success'),
		dialog.getByText('More details').waitFor().then(() => 'failure'),
		dialog.waitFor({ state: 'hidden' }).then(() => 'success'),
	]);
	if (shown !== 'failure') return shown;
	await dialog.getByText('More details').click();
	return dialog.innerText();
}

/** Imports a workflow file into a new workflow (the workflow menu's Import > From file). */
export async function importWorkflowFile(page: Page, file: string) {
	await newWorkflow(page);
	await page.getByTestId('workflow-menu').click();
	await page.getByTestId('workflow-menu-item-import').hover();
	const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('workflow-menu-item-import-from-file').click()]);
	await chooser.setFiles(file);
	await page.getByTestId('canvas-node').first().waitFor();
}

type Statuses = Record<string, 'success' | 'error' | undefined>;

/** Each canvas node's run status (success, error, or none) as the canvas shows it. */
export async function nodeStatuses(page: Page): Promise<Statuses> {
	return page.getByTestId('canvas-node').evaluateAll((nodes) =>
		Object.fromEntries(
			nodes.map((node) => {
				const status = node.querySelector('[data-test-id="canvas-node-status-success"]') ? 'success' : node.querySelector('[data-test-id="canvas-node-status-error"]') ? 'error' : undefined;
				return [node.getAttribute('data-node-name') ?? '', status];
			}),
		),
	);
}

/**
 * Runs the workflow (Execute workflow) and waits until `nodes` all succeeded or one failed; their
 * statuses and the error notifications shown (n8n's "Problem in node ..."), for the test to assert on.
 */
export async function runWorkflow(page: Page, nodes: string[], ms = 60_000) {
	await page.getByTestId('execute-workflow-button').click();
	const statuses = await settled(
		() => nodeStatuses(page),
		(shown) => nodes.every((node) => shown[node] === 'success') || Object.values(shown).includes('error'),
		ms,
	);
	await page.getByTestId('execute-workflow-button').getByText('Execute workflow').waitFor(); // the run is over
	const errors = await page.locator('.el-notification').filter({ has: page.locator('.el-notification--error') }).allInnerTexts();
	return { statuses: Object.fromEntries(nodes.map((node) => [node, statuses[node]])), errors };
}

export const allSucceeded = (nodes: string[]) => ({ statuses: Object.fromEntries(nodes.map((node) => [node, 'success'])), errors: [] });

/** Pastes a workflow (nodes and connections, as n8n copies them) onto the canvas. */
export async function paste(page: Page, workflow: object) {
	// The page's clipboard (the context has its permissions); the test's tsconfig has no DOM types.
	await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(JSON.stringify(workflow))})`);
	await page.getByTestId('canvas-wrapper').click({ position: { x: 200, y: 200 } });
	await page.keyboard.press('Control+v');
}
