import { ADMIN_KEY, client, connectedDevice, startServer } from '../helpers/server';
import type { App } from '../../server/src/app';

let server: App;
beforeAll(async () => {
	server = await startServer({ pairing: 'manual' });
});
afterAll(() => server.close());

test('a paired device sends a text that find reads back', async () => {
	const api = client(server.url);
	const d = await connectedDevice(server, 'smoke');
	const sent = await api.post('/send/text', { number: '5511999990001', text: 'hi {{who}}', placeholders: { who: 'Ana' } }, { token: d.token });
	expect(sent.status).toBe(200);
	expect(sent.body.data).toMatchObject({ text: 'hi Ana', status: 'sent', fromMe: true, chatid: '5511999990001@s.whatsapp.net' });
	const found = await api.post('/message/find', { id: sent.body.data.id }, { token: d.token });
	expect(found.body.data.messages[0].text).toBe('hi Ana');
	expect((await api.get('/devices', { key: ADMIN_KEY })).body.data[0].token).toBe(d.token);
});
