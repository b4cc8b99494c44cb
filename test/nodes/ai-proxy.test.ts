import type { App } from '../../server/src/app';
import { aiModel, apiKey, conversation } from '../../server/src/site/ai-proxy/state';
import { startSite } from '../helpers/content';
import { firstJson, runNode, siteHarness } from '../helpers/nodes';

/** WDM AI Proxy: every operation through n8n's engine against a live site (built-in model), in both addressing styles. */

const KEY = 'sk-node-test-0123456789';

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	let server: App;
	beforeAll(async () => {
		({ server } = await startSite());
	});
	afterAll(() => server.close());

	const run = (operation: string, parameters: Record<string, unknown> = {}) =>
		runNode(siteHarness(server.url, addressing), 'CUSTOM.wdmAiProxy', { resource: 'ai', operation, ...parameters } as never);
	const store = () => server.services.store;
	const adminId = () => store().users.byName('admin')!.id;

	test('Set Key and Set Model fetch their nonce by themselves; Get Settings never shows the key', async () => {
		expect(firstJson(await run('getAiSettings'))).toMatchObject({ key_set: false, model: '' });
		const keyed = firstJson(await run('setKey', { apiKey: KEY }));
		expect(keyed).toMatchObject({ key_set: true });
		expect(JSON.stringify(keyed)).not.toContain(KEY);
		expect(apiKey(store())).toBe(KEY);
		expect(firstJson(await run('setModel', { aiModel: 'wdm-echo-mini' })).model).toBe('wdm-echo-mini');
		expect(aiModel(store())).toBe('wdm-echo-mini');
		const settings = firstJson(await run('getAiSettings'));
		expect(settings).toMatchObject({ key_set: true, model: 'wdm-echo-mini' });
		expect(JSON.stringify(settings)).not.toContain(KEY);
		const bad = await run('setModel', { aiModel: 'has spaces' });
		expect(bad.error?.description).toContain('model must be a model id');
	});

	test('List Models, Get From AI Service, Delete From AI Service', async () => {
		const models = firstJson(await run('listModels'));
		expect(models.data.map((m: { id: string }) => m.id)).toEqual(['wdm-echo-1', 'wdm-echo-mini', 'wdm-embed-1']);
		expect(firstJson(await run('getFromService', { apiPath: 'models/wdm-embed-1' }))).toMatchObject({ id: 'wdm-embed-1', object: 'model' });
		const missing = await run('getFromService', { apiPath: 'models/nope' });
		expect(missing.error).toMatchObject({ httpCode: '404' });
		// The simulated service deletes nothing: its refusal comes back as it is.
		const refused = await run('deleteFromService', { apiPath: 'models/wdm-echo-1' });
		expect(refused.error).toMatchObject({ httpCode: '405' });
		expect(JSON.stringify(refused.error)).toContain('DELETE is not allowed on /models/wdm-echo-1; use GET.');
	});

	test('Chat with messages (the stored model) and with a JSON body for any path; the replies are remembered', async () => {
		const reply = firstJson(
			await run('chat', {
				chatMessages: { message: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello node' }] },
				chatOptions: { maxTokens: 50 },
			}),
		);
		expect(reply).toMatchObject({ model: 'wdm-echo-mini', choices: [{ message: { role: 'assistant', content: 'You said: "Hello node" (2 words, message 1 of this conversation).' } }] });
		const other = firstJson(await run('chat', { chatMessages: { message: [{ role: 'user', content: 'Again' }] }, chatOptions: { model: 'wdm-echo-1' } }));
		expect(other.model).toBe('wdm-echo-1');

		const embedded = firstJson(await run('chat', { chatPath: 'embeddings', chatInput: 'json', chatJson: JSON.stringify({ input: 'text', dimensions: 4 }) }));
		expect(embedded.data[0].embedding).toHaveLength(4);
		const badJson = await run('chat', { chatInput: 'json', chatJson: '{nope' });
		expect(badJson.error?.message).toMatch(/^Body \(JSON\) is not valid JSON/);

		expect(conversation(store(), adminId()).map((m) => m.content)).toEqual([
			'Hello node',
			'You said: "Hello node" (2 words, message 1 of this conversation).',
			'Again',
			'You said: "Again" (1 word, message 1 of this conversation).',
		]);
	});

	test('Get Last Response, Add Response, Delete Last Response', async () => {
		expect(firstJson(await run('getLastResponse'))).toMatchObject({ role: 'assistant', content: 'You said: "Again" (1 word, message 1 of this conversation).', model: 'wdm-echo-1' });
		expect(firstJson(await run('addResponse', { responseContent: 'Edited', responseModel: 'me' }))).toMatchObject({ content: 'Edited', model: 'me' });
		expect(firstJson(await run('getLastResponse')).content).toBe('Edited');
		expect(firstJson(await run('deleteLastResponse'))).toMatchObject({ deleted: true, previous: { content: 'Edited' } });
		expect(conversation(store(), adminId())).toHaveLength(4);
	});

	test('Trim Conversation, Export and Clear Conversation (keeping the newest), Clear Conversation', async () => {
		const trimmed = firstJson(await run('trimConversation', { keep: 3 }));
		expect(trimmed).toMatchObject({ deleted: 1, kept: 3, previous: [{ content: 'Hello node' }] });
		const exported = firstJson(await run('exportConversation', { keep: 1 }));
		expect(exported).toMatchObject({ deleted: 2, kept: 1 });
		expect(exported.previous.map((m: { content: string }) => m.content)).toEqual(['You said: "Hello node" (2 words, message 1 of this conversation).', 'Again']);
		expect(firstJson(await run('clearConversation'))).toMatchObject({ deleted: 1, kept: 0 });
		expect(conversation(store(), adminId())).toEqual([]);
		const none = await run('getLastResponse');
		expect(none.error).toMatchObject({ httpCode: '404', message: 'There is no response in this conversation yet.' });
	});
});
