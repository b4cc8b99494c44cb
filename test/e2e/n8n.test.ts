// Real n8n, end to end: n8n 2.40.7 (installed once per machine by install-n8n.sh) loads the built
// package as custom nodes and runs a workflow with `n8n execute` against the reference server,
// which runs in this process over real HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, client, connectedDevice, startServer } from '../helpers/server';
import { buildPackage, ensureN8n, n8nCli, nodeOutput } from './n8n';
import { bulkText, bulkWorkflow, link, node, subscriber, wdmSendText } from './workflows';

let server: App;
let dir: string;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-n8n-'));
	await buildPackage(path.join(dir, 'custom', 'n8n-nodes-wdm'));
	server = await startServer();
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});


/** An n8n instance of its own (a user folder per test) with a paired device and its credential imported. */
async function n8nWithDevice(name: string) {
	const device = await connectedDevice(server, name);
	const instance = { id: `wdmE2e${name}Inst`.slice(0, 16).padEnd(16, '0'), name: `WDM ${name}` };
	const n8n = await n8nCli(path.join(dir, `user-${name}`), path.join(dir, 'custom'));
	await n8n.importCredentials([{ ...instance, type: 'wdmInstanceApi', data: { baseUrl: `${server.url}/wp-json/wdm/v1`, token: device.token } }]);
	return { device, n8n, credentials: { wdmInstanceApi: instance } };
}

test('Manual Trigger -> WDM Device: Get Status -> WDM Message: Send Text', async () => {
	const device = await connectedDevice(server, 'shop');
	const baseUrl = `${server.url}/wp-json/wdm/v1`;
	const userKey = { id: 'wdmE2eUserKey001', name: 'WDM admin' };
	const instance = { id: 'wdmE2eInstance01', name: 'WDM shop' };

	const n8n = await n8nCli(path.join(dir, 'user'), path.join(dir, 'custom'));
	await n8n.importCredentials([
		{ ...userKey, type: 'wdmUserApi', data: { baseUrl, apiKey: ADMIN_KEY } },
		{ ...instance, type: 'wdmInstanceApi', data: { baseUrl, token: device.token } },
	]);
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow01',
		name: 'WDM e2e',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			node('WDM Device', 'CUSTOM.wdmDevice', { operation: 'getStatus', device: 'shop' }, { wdmUserApi: userKey }),
			node(
				'WDM Message',
				'CUSTOM.wdmMessage',
				{ operation: 'sendText', number: '5511999990001', text: '=status is {{ $json.status }}' },
				{ wdmInstanceApi: instance },
			),
		],
		connections: { 'Manual Trigger': link('WDM Device'), 'WDM Device': link('WDM Message') },
	});
	const run = await n8n.execute('wdmE2eWorkflow01');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'WDM Device')).toEqual([expect.objectContaining({ name: 'shop', status: 'connected', connected: true })]);
	const [sent] = nodeOutput(run, 'WDM Message');
	expect(sent).toMatchObject({ text: 'status is connected', status: 'sent', fromMe: true, chatid: '5511999990001@s.whatsapp.net' });

	// The server has the message, sent from the device the token belongs to.
	const found = await client(server.url).post('/message/find', { id: sent.id }, { token: device.token });
	expect(found.body.data.messages).toEqual([expect.objectContaining({ id: sent.id, text: 'status is connected' })]);
}, 10 * 60_000);

test('Send Menu -> React to it -> Label the chat -> Find the chat by label', async () => {
	const { device, n8n, credentials } = await n8nWithDevice('menus');
	const customer = '5511999990077';
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow02',
		name: 'WDM e2e menus',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			node(
				'Send Menu',
				'CUSTOM.wdmMessage',
				{
					operation: 'sendMenu',
					number: customer,
					menuType: 'button',
					text: 'Your order is ready. Pick it up?',
					buttons: { button: [{ label: 'Yes', kind: 'reply', value: 'yes' }, { label: 'Later', kind: 'reply', value: 'later' }] },
				},
				credentials,
			),
			node('React', 'CUSTOM.wdmMessage', { operation: 'react', number: '={{ $json.chatid }}', id: '={{ $json.id }}', reaction: '👍' }, credentials),
			node('Label Chat', 'CUSTOM.wdmLabel', { operation: 'addChatLabel', number: customer, labelId: '2' }, credentials),
			node(
				'Find Chat',
				'CUSTOM.wdmChat',
				{ operation: 'find', returnAll: true, filters: { conditions: [{ attribute: 'wa_label', operator: 'equals', value: '2' }] } },
				credentials,
			),
		],
		connections: {
			'Manual Trigger': link('Send Menu'),
			'Send Menu': link('React'),
			React: link('Label Chat'),
			'Label Chat': link('Find Chat'),
		},
	});
	const run = await n8n.execute('wdmE2eWorkflow02');

	expect(run.status).toBe('success');
	const [menu] = nodeOutput(run, 'Send Menu');
	expect(menu).toMatchObject({ messageType: 'button', content: { buttons: [{ type: 'REPLY', id: 'yes' }, { type: 'REPLY', id: 'later' }] } });
	expect(nodeOutput(run, 'React')).toEqual([expect.objectContaining({ id: menu.id, reaction: '👍' })]);
	expect(nodeOutput(run, 'Label Chat')).toEqual([expect.objectContaining({ labelids: ['2'] })]);
	expect(nodeOutput(run, 'Find Chat')).toEqual([expect.objectContaining({ wa_chatid: `${customer}@s.whatsapp.net`, wa_label: ['2'] })]);

	// The server agrees: the reaction is on the stored menu message.
	const found = await client(server.url).post('/message/find', { id: menu.id }, { token: device.token });
	expect(found.body.data.messages).toEqual([expect.objectContaining({ id: menu.id, reaction: '👍' })]);
}, 10 * 60_000);

test('Check Numbers -> Create a group with the valid ones -> Read its invite link', async () => {
	const { n8n, credentials } = await n8nWithDevice('groups');
	const sandbox = client(server.url, '/wp-json/sandbox/v1');
	const [valid1, valid2, absent] = ['5511988880001', '5511988880002', '5511988880003'];
	expect((await sandbox.post('/numbers', { number: absent, onNetwork: false }, { key: ADMIN_KEY })).status).toBe(200);
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow03',
		name: 'WDM e2e groups',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			node(
				'Check Numbers',
				'CUSTOM.wdmContact',
				{ operation: 'checkNumbers', numbers: { values: [{ number: valid1 }, { number: absent }, { number: valid2 }] } },
				credentials,
			),
			{
				...node(
					'Create Group',
					'CUSTOM.wdmGroup',
					{
						operation: 'create',
						name: 'Valid customers',
						participants: { values: [{ number: "={{ $('Check Numbers').all().filter((i) => i.json.isInWhatsapp).map((i) => i.json.jid) }}" }] },
					},
					credentials,
				),
				executeOnce: true,
			},
			node('Get Group', 'CUSTOM.wdmGroup', { operation: 'get', groupjid: '={{ $json.jid }}', options: { getInviteLink: true } }, credentials),
		],
		connections: { 'Manual Trigger': link('Check Numbers'), 'Check Numbers': link('Create Group'), 'Create Group': link('Get Group') },
	});
	const run = await n8n.execute('wdmE2eWorkflow03');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'Check Numbers').map((c) => [c.query, c.isInWhatsapp])).toEqual([
		[valid1, true],
		[absent, false],
		[valid2, true],
	]);
	const [created] = nodeOutput(run, 'Create Group');
	expect(created.participants.map((p: { jid: string }) => p.jid)).toEqual(
		expect.arrayContaining([`${valid1}@s.whatsapp.net`, `${valid2}@s.whatsapp.net`]),
	);
	expect(created.participants.map((p: { jid: string }) => p.jid)).not.toContain(`${absent}@s.whatsapp.net`);
	const [group] = nodeOutput(run, 'Get Group');
	expect(group).toMatchObject({ jid: created.jid, name: 'Valid customers', inviteLink: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/\w+$/) });
}, 10 * 60_000);

test('Upload an image -> Create a post featuring it -> Update the post -> List its revisions', async () => {
	const n8n = await n8nCli(path.join(dir, 'user-site'), path.join(dir, 'custom'));
	const site = { id: 'wdmE2eSiteCred01', name: 'WDM site' };
	await n8n.importCredentials([
		{ ...site, type: 'wdmSiteApi', data: { url: server.url, addressing: 'restRoute', username: 'admin', password: ADMIN_APP_PASSWORD } },
	]);
	const credentials = { wdmSiteApi: site };
	const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow04',
		name: 'WDM e2e site',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			{ ...node('Image', 'n8n-nodes-base.set', { mode: 'raw', jsonOutput: JSON.stringify({ png }) }), typeVersion: 3.4 },
			{
				...node('To File', 'n8n-nodes-base.convertToFile', {
					operation: 'toBinary',
					sourceProperty: 'png',
					binaryPropertyName: 'data',
					options: { fileName: 'cover.png', mimeType: 'image/png' },
				}),
				typeVersion: 1.1,
			},
			node('Upload', 'CUSTOM.wdmMedia', { operation: 'upload', binaryPropertyName: 'data', options: { alt_text: 'Cover' } }, credentials),
			node(
				'Create Post',
				'CUSTOM.wdmPost',
				{
					operation: 'create',
					title: 'Launch day',
					content: 'We are live.',
					additionalFields: { status: 'publish', featured_media: '={{ $json.id }}' },
				},
				credentials,
			),
			node('Update Post', 'CUSTOM.wdmPost', { operation: 'update', postId: '={{ $json.id }}', updateFields: { title: 'Launch day: we are live' } }, credentials),
			node('Revisions', 'CUSTOM.wdmPost', { operation: 'getRevisions', postId: '={{ $json.id }}', returnAll: true }, credentials),
		],
		connections: {
			'Manual Trigger': link('Image'),
			Image: link('To File'),
			'To File': link('Upload'),
			Upload: link('Create Post'),
			'Create Post': link('Update Post'),
			'Update Post': link('Revisions'),
		},
	});
	const run = await n8n.execute('wdmE2eWorkflow04');

	expect(run.status).toBe('success');
	const [media] = nodeOutput(run, 'Upload');
	expect(media).toMatchObject({ mime_type: 'image/png', alt_text: 'Cover', media_details: { width: 1, height: 1 } });
	const [created] = nodeOutput(run, 'Create Post');
	expect(created).toMatchObject({ status: 'publish', featured_media: media.id, title: { rendered: 'Launch day' } });
	expect(nodeOutput(run, 'Update Post')).toEqual([expect.objectContaining({ id: created.id, title: expect.objectContaining({ rendered: 'Launch day: we are live' }) })]);
	const revisions = nodeOutput(run, 'Revisions');
	expect(revisions.map((r) => r.parent)).toEqual(revisions.map(() => created.id));
	expect(revisions.map((r) => r.title.rendered)).toContain('Launch day: we are live');

	// The site serves the uploaded file, and the post points at it.
	const file = await fetch(media.source_url);
	expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(png, 'base64'));
	const stored = await fetch(`${server.url}/wp-json/cms/v2/posts/${created.id}?context=edit`, { headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD) } });
	expect(await stored.json()).toMatchObject({ featured_media: media.id, title: { raw: 'Launch day: we are live' } });
}, 10 * 60_000);

test('Install and activate a plugin -> set the AI key and model -> chat through the AI proxy -> read the last response', async () => {
	const n8n = await n8nCli(path.join(dir, 'user-ai'), path.join(dir, 'custom'));
	const site = { id: 'wdmE2eSiteCred02', name: 'WDM site' };
	await n8n.importCredentials([
		{ ...site, type: 'wdmSiteApi', data: { url: server.url, addressing: 'wpJson', username: 'admin', password: ADMIN_APP_PASSWORD } },
	]);
	const credentials = { wdmSiteApi: site };
	const connect = (name: string, parameters: object) => node(name, 'CUSTOM.wdmBuilderConnect', { resource: 'plugin', ...parameters }, credentials);
	const ai = (name: string, parameters: object) => node(name, 'CUSTOM.wdmAiProxy', { resource: 'ai', ...parameters }, credentials);
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow06',
		name: 'WDM e2e plugins and AI',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			connect('Install', { operation: 'installPlugin', plugin: 'site-mailer', installStatus: 'inactive' }),
			connect('Activate', { operation: 'activatePlugin', pluginSlug: 'site-mailer' }),
			ai('Set Key', { operation: 'setKey', apiKey: 'sk-e2e-secret-key' }),
			ai('Set Model', { operation: 'setModel', aiModel: 'wdm-echo-mini' }),
			ai('Chat', { operation: 'chat', chatMessages: { message: [{ role: 'user', content: 'Hello from n8n' }] } }),
			ai('Last Response', { operation: 'getLastResponse' }),
		],
		connections: {
			'Manual Trigger': link('Install'),
			Install: link('Activate'),
			Activate: link('Set Key'),
			'Set Key': link('Set Model'),
			'Set Model': link('Chat'),
			Chat: link('Last Response'),
		},
	});
	const run = await n8n.execute('wdmE2eWorkflow06');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'Install')).toEqual([expect.objectContaining({ slug: 'site-mailer', status: 'inactive' })]);
	expect(nodeOutput(run, 'Activate')).toEqual([expect.objectContaining({ slug: 'site-mailer', status: 'active' })]);
	expect(JSON.stringify(nodeOutput(run, 'Set Key'))).not.toContain('sk-e2e-secret-key');
	const [chat] = nodeOutput(run, 'Chat');
	expect(chat).toMatchObject({ object: 'chat.completion', model: 'wdm-echo-mini' });
	const reply = chat.choices[0].message.content;
	expect(reply).toContain('Hello from n8n');
	expect(nodeOutput(run, 'Last Response')).toEqual([expect.objectContaining({ role: 'assistant', content: reply })]);

	// The site keeps what the workflow did: the plugin is active for builder-one/v1.
	const plugins = await fetch(`${server.url}/wp-json/builder-one/v1/plugins?search=mailer`, { headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD) } });
	expect(await plugins.json()).toEqual([expect.objectContaining({ slug: 'site-mailer', status: 'active' })]);
}, 10 * 60_000);

test('A global colour and a variable -> create a component -> publish it -> the design-system stylesheet has both', async () => {
	const n8n = await n8nCli(path.join(dir, 'user-builder'), path.join(dir, 'custom'));
	const site = { id: 'wdmE2eSiteCred03', name: 'WDM site' };
	await n8n.importCredentials([
		{ ...site, type: 'wdmSiteApi', data: { url: server.url, addressing: 'restRoute', username: 'admin', password: ADMIN_APP_PASSWORD } },
	]);
	const builder = (name: string, resource: string, parameters: object) =>
		node(name, 'CUSTOM.wdmPageBuilder', { resource, ...parameters }, { wdmSiteApi: site });
	const elements = JSON.stringify([{ id: 'e2e-card', elType: 'e-flexbox', elements: [], settings: {} }]);
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow07',
		name: 'WDM e2e page builder',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			builder('Colour', 'global', { operation: 'saveGlobalColor', globalId: 'brand', globalTitle: 'Brand', globalColorValue: '#123456' }),
			builder('Variable', 'variable', { operation: 'createVariable', variableType: 'global-color-variable', variableLabel: 'brand-ink', variableValue: '#654321' }),
			builder('Component', 'component', {
				operation: 'createComponents',
				componentStatus: 'draft',
				componentItems: { component: [{ uid: 'e2e-card', title: 'Brand card', elements, settings: '{}' }] },
			}),
			builder('Publish', 'component', { operation: 'publishComponents', componentIds: '={{ Object.values($json).join(",") }}' }),
			builder('Stylesheet', 'designSystem', { operation: 'getDesignStylesheet' }),
		],
		connections: {
			'Manual Trigger': link('Colour'),
			Colour: link('Variable'),
			Variable: link('Component'),
			Component: link('Publish'),
			Publish: link('Stylesheet'),
		},
	});
	const run = await n8n.execute('wdmE2eWorkflow07');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'Colour')).toEqual([{ id: 'brand', title: 'Brand', value: '#123456' }]);
	const [{ 'e2e-card': componentId }] = nodeOutput(run, 'Component');
	expect(nodeOutput(run, 'Publish')).toEqual([{ success: [componentId], failed: [] }]);
	const [{ css }] = nodeOutput(run, 'Stylesheet');
	expect(css).toContain('--builder-global-color-brand: #123456;');
	expect(css).toContain('--brand-ink: #654321;');

	// The component is published content of the site.
	expect(server.services.store.content.get(componentId)?.status).toBe('publish');
}, 10 * 60_000);

test('A post type with a meta box -> two items of it at cms/v2 -> a stored query run over them -> a header template assigned to the type', async () => {
	const n8n = await n8nCli(path.join(dir, 'user-engine'), path.join(dir, 'custom'));
	const site = { id: 'wdmE2eSiteCred04', name: 'WDM site' };
	await n8n.importCredentials([
		{ ...site, type: 'wdmSiteApi', data: { url: server.url, addressing: 'restRoute', username: 'admin', password: ADMIN_APP_PASSWORD } },
	]);
	const credentials = { wdmSiteApi: site };
	// After the two items, each node runs once for the workflow, not once per item.
	const once = (n: ReturnType<typeof node>) => ({ ...n, executeOnce: true });
	const engine = (name: string, resource: string, parameters: object) => node(name, 'CUSTOM.wdmDynamicContent', { resource, ...parameters }, credentials);
	const books = [
		{ title: 'Dune', pages: 412 },
		{ title: 'Emma', pages: 474 },
	];
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow08',
		name: 'WDM e2e engine',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			engine('Post Type', 'postType', { operation: 'createPostType', postTypeName: 'Books', postTypeFields: { slug: 'book', restBase: 'books', singularLabel: 'Book' } }),
			engine('Meta Box', 'metaBox', {
				operation: 'createMetaBox',
				metaBoxName: 'Details',
				metaBoxFields: { allowedPostTypes: 'book' },
				metaFields: { field: [{ name: 'pages', type: 'number', minValue: '1' }] },
			}),
			{ ...node('Books', 'n8n-nodes-base.code', { jsCode: `return ${JSON.stringify(books)}.map((json) => ({ json }));` }), typeVersion: 2 },
			engine('Create Book', 'contentItem', {
				operation: 'createContentItem',
				restBase: 'books',
				contentItemFields: { title: '={{ $json.title }}', status: 'publish', meta: '={{ JSON.stringify({ pages: $json.pages }) }}' },
			}),
			once(engine('Store Query', 'query', { operation: 'createQuery', queryName: 'Long books', queryType: 'posts', queryArgs: { postType: 'book', orderBy: 'title', order: 'ASC' }, queryAdditionalFields: { slug: 'long-books' } })),
			once(engine('Run Query', 'query', { operation: 'runQuery', queryId: 'long-books' })),
			once(node('Header', 'CUSTOM.wdmThemeCore', { resource: 'template', operation: 'createTemplate', templateName: 'Book header', templateType: 'themecore-header' }, credentials)),
			once(
				node(
					'Assign Header',
					'CUSTOM.wdmThemeCore',
					{ resource: 'template', operation: 'updateTemplateConditions', templateId: '={{ $json.newTemplateId }}', conditions: { condition: [{ include: 'include', appliesTo: 'single', slug: 'book' }] } },
					credentials,
				),
			),
		],
		connections: {
			'Manual Trigger': link('Post Type'),
			'Post Type': link('Meta Box'),
			'Meta Box': link('Books'),
			Books: link('Create Book'),
			'Create Book': link('Store Query'),
			'Store Query': link('Run Query'),
			'Run Query': link('Header'),
			Header: link('Assign Header'),
		},
	});
	const run = await n8n.execute('wdmE2eWorkflow08');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'Post Type')).toEqual([expect.objectContaining({ general_settings: expect.objectContaining({ slug: 'book' }) })]);
	const created = nodeOutput(run, 'Create Book');
	expect(created.map((b) => [b.type, b.title.raw, b.meta.pages])).toEqual([
		['book', 'Dune', 412],
		['book', 'Emma', 474],
	]);
	const rows = nodeOutput(run, 'Run Query');
	expect(rows.map((r) => r.ID ?? r.id)).toEqual(created.map((b) => b.id));
	const [assigned] = nodeOutput(run, 'Assign Header');
	expect(JSON.stringify(assigned)).toContain('book');

	// cms/v2 serves the type's items with their meta.
	const stored = await fetch(`${server.url}/wp-json/cms/v2/books?context=edit&orderby=title&order=asc`, { headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD) } });
	const items = (await stored.json()) as { title: { raw: string }; meta: { pages: number } }[];
	expect(items.map((b) => [b.title.raw, b.meta.pages])).toEqual([
		['Dune', 412],
		['Emma', 474],
	]);
}, 10 * 60_000);

test('Bulk send: 2,000 subscribers -> WDM Message Send Text, each with its own number, text and track id', async () => {
	const { device, n8n, credentials } = await n8nWithDevice('bulk');
	const count = 2000;
	await n8n.importWorkflow(bulkWorkflow('wdmE2eWorkflow05', count, wdmSendText(credentials.wdmInstanceApi)));
	const run = await n8n.execute('wdmE2eWorkflow05', 10 * 60_000);

	expect(run.status).toBe('success');
	expect(run.data.resultData.error).toBeUndefined();
	const expected = Array.from({ length: count }, (_, i) => ({
		chatid: `${subscriber(i).phone}@s.whatsapp.net`,
		text: bulkText(i),
		track_id: subscriber(i).id,
	}));
	// One output item per input item, in item order.
	expect(nodeOutput(run, 'Send').map(({ chatid, text, track_id }) => ({ chatid, text, track_id }))).toEqual(expected);

	// The server stored exactly one message per subscriber, to their number, with their text.
	const api = client(server.url);
	const stored: Array<{ chatid: string; text: string; track_id: string }> = [];
	for (let offset = 0; ; offset += 1000) {
		const page = await api.post('/message/find', { limit: 1000, offset }, { token: device.token });
		stored.push(...page.body.data.messages);
		if (!page.body.data.hasMore) break;
	}
	const byTrackId = (m: { track_id: string }) => Number(m.track_id.slice('sub-'.length));
	expect(stored.sort((a, b) => byTrackId(a) - byTrackId(b)).map(({ chatid, text, track_id }) => ({ chatid, text, track_id }))).toEqual(expected);
}, 15 * 60_000);
