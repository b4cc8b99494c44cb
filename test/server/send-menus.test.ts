import { ADMIN_KEY, connectedDevice, eventually, expectError, findMessage, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import { startReceiver } from '../helpers/webhooks';
import type { App } from '../../server/src/app';

/** POST /send/menu and /send/carousel, read back through /message/find, and contacts answering them in the sandbox. */

const CONTACT = '5511988880001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	dev = await connectedDevice(server, 'menus');
});
afterAll(() => server.close());

const menu = (body: Record<string, unknown>, token = dev.token) => api.post('/send/menu', { number: CONTACT, ...body }, { token });
const carousel = (body: Record<string, unknown>, token = dev.token) => api.post('/send/carousel', { number: CONTACT, ...body }, { token });
const answer = (body: Record<string, unknown>, device = 'menus') => sandbox.post(`/devices/${device}/answer`, body, { key: ADMIN_KEY });

const findOne = (id: string, token = dev.token) => findMessage(api, token, id);

const card = (text: string, buttons: unknown[], image = 'https://shop.example.com/1.jpg') => ({ text, image, buttons });

describe('POST /send/menu: buttons', () => {
	test('reply, copy, URL and call buttons are parsed and stored; find shows them', async () => {
		const res = await menu({
			type: 'button',
			text: 'How can we help, {{name}}?',
			choices: ['Yes|yes', ' Coupon | copy: SAVE10 ', 'Site|url:https://shop.example.com/a?b=1', 'Call us|CALL:+55 (11) 4000-1234'],
			footerText: 'Shop {{name}}',
			imageButton: 'https://shop.example.com/banner.png',
			placeholders: { name: 'Ana' },
		});
		expect(res.status).toBe(400);
		// Four buttons are one too many: the limit is three.
		expectError(res, 400, 'choices: a button menu has at most 3 buttons (got 4)');

		const ok = await menu({
			type: 'button',
			text: 'How can we help, {{name}}?',
			choices: ['Yes|yes', ' Coupon | copy: SAVE10 ', 'Call us|CALL:+55 (11) 4000-1234'],
			footerText: 'Shop {{name}}',
			imageButton: 'https://shop.example.com/banner.png',
			placeholders: { name: 'Ana' },
			track_source: 'bot',
		});
		expect(ok.status).toBe(200);
		const content = {
			buttons: [
				{ type: 'REPLY', text: 'Yes', id: 'yes' },
				{ type: 'COPY', text: 'Coupon', id: 'SAVE10' },
				{ type: 'CALL', text: 'Call us', id: '+551140001234' },
			],
			footerText: 'Shop Ana',
			imageButton: 'https://shop.example.com/banner.png',
		};
		expect(ok.body.data).toMatchObject({
			chatid: CONTACT_JID,
			fromMe: true,
			messageType: 'button',
			text: 'How can we help, Ana?',
			status: 'sent',
			content,
			track_source: 'bot',
			wasSentByApi: true,
		});
		expect((await findOne(ok.body.data.id)).content).toEqual(content);

		const url = await menu({ type: 'button', text: 'Visit', choices: ['Site|url:https://shop.example.com/a?b=1'] });
		expect(url.status).toBe(200);
		expect(url.body.data.content).toEqual({
			buttons: [{ type: 'URL', text: 'Site', id: 'https://shop.example.com/a?b=1' }],
			footerText: null,
			imageButton: null,
		});
	});

	test('malformed button choices quote the entry, all at once', async () => {
		expectError(await menu({ type: 'button', text: 'x', choices: ['Yes|yes', 'No', 'Maybe|'] }), 400,
			"choices[1] 'No' must be 'label|id' for a button menu; choices[2] 'Maybe|' must be 'label|id' for a button menu");
		expectError(await menu({ type: 'button', text: 'x', choices: ['|yes'] }), 400, "choices[0] '|yes' must be 'label|id' for a button menu");
		expectError(await menu({ type: 'button', text: 'x', choices: ['Yes|yes|Say yes'] }), 400,
			"choices[0] 'Yes|yes|Say yes' must be 'label|id' for a button menu (an id cannot contain '|')");
		expectError(await menu({ type: 'button', text: 'x', choices: ['Yes|yes', 'Sure|yes'] }), 400,
			"choices[1] 'Sure|yes' repeats the button id 'yes' of choices[0]");
		expectError(await menu({ type: 'button', text: 'x', choices: ['Site|url:ftp://files.example.com'] }), 400,
			"choices[0] 'Site|url:ftp://files.example.com' needs an http(s) URL after 'url:'");
		expectError(await menu({ type: 'button', text: 'x', choices: ['Call|call:12ab'] }), 400,
			"choices[0] 'Call|call:12ab' needs a phone number (8 to 15 digits, country code first) after 'call:'");
		expectError(await menu({ type: 'button', text: 'x', choices: ['Code|copy:'] }), 400,
			"choices[0] 'Code|copy:' needs a code of 1 to 256 characters to copy after 'copy:'");
		expectError(await menu({ type: 'button', text: 'x', choices: ['A label that is far too long|a'] }), 400,
			"choices[0] 'A label that is far too long|a' has a label over 20 characters");
		expectError(await menu({ type: 'button', text: 'x', choices: [`Id|${'i'.repeat(257)}`] }), 400, /^choices\[0\] 'Id\|i+' has an id over 256 characters$/);
		expectError(await menu({ type: 'button', text: 'x', choices: ['Yes|yes', 3] }), 400, 'choices[1] must be a string (got number 3)');
	});

	test('copy and URL buttons may share values; only reply ids must be unique', async () => {
		const res = await menu({ type: 'button', text: 'x', choices: ['A|copy:X', 'B|copy:X', 'C|x'] });
		expect(res.status).toBe(200);
	});
});

describe('POST /send/menu: lists', () => {
	test('sections and items, an untitled first section, optional descriptions', async () => {
		const res = await menu({
			type: 'list',
			text: 'Our menu',
			listButton: 'See options',
			footerText: 'Prices in BRL',
			choices: ['Today only|today', '[Drinks]', 'Coffee|coffee|Hot, fresh | strong', 'Tea|tea', '[Food]', 'Cake|cake|Chocolate'],
		});
		expect(res.status).toBe(200);
		const content = {
			listButton: 'See options',
			footerText: 'Prices in BRL',
			sections: [
				{ title: null, rows: [{ id: 'today', title: 'Today only', description: null }] },
				{
					title: 'Drinks',
					rows: [
						{ id: 'coffee', title: 'Coffee', description: 'Hot, fresh | strong' },
						{ id: 'tea', title: 'Tea', description: null },
					],
				},
				{ title: 'Food', rows: [{ id: 'cake', title: 'Cake', description: 'Chocolate' }] },
			],
		};
		expect(res.body.data).toMatchObject({ messageType: 'list', text: 'Our menu', content });
		expect((await findOne(res.body.data.id)).content).toEqual(content);
	});

	test('listButton is required, and only lists take it', async () => {
		expectError(await menu({ type: 'list', text: 'x', choices: ['A|a'] }), 400, 'listButton is required for a list menu: the label of the button that opens it');
		expectError(await menu({ type: 'button', text: 'x', choices: ['A|a'], listButton: 'Open' }), 400, 'listButton applies to list menus only');
		expectError(await menu({ type: 'list', text: 'x', choices: ['A|a'], listButton: 'x'.repeat(21) }), 400, 'listButton must be at most 20 characters long');
	});

	test('malformed list choices quote the entry', async () => {
		const list = (choices: unknown[]) => menu({ type: 'list', text: 'x', listButton: 'Open', choices });
		expectError(await list(['[Drinks]', 'Coffee']), 400,
			"choices[1] 'Coffee' must be a section heading '[title]' or an item 'title|id|description' for a list menu; choices[0] '[Drinks]' is a section without items");
		expectError(await list(['[ ]', 'A|a']), 400, "choices[0] '[ ]' needs a section title between the brackets");
		expectError(await list(['A|a', '[Empty]']), 400, "choices[1] '[Empty]' is a section without items");
		expectError(await list(['A|a|one', 'B|a|two']), 400, "choices[1] 'B|a|two' repeats the item id 'a' of choices[0]");
		expectError(await list(['|a', 'B|']), 400,
			"choices[0] '|a' must be a section heading '[title]' or an item 'title|id|description' for a list menu; choices[1] 'B|' must be a section heading '[title]' or an item 'title|id|description' for a list menu");
		expectError(await list([`A|a|${'d'.repeat(73)}`]), 400, /^choices\[0\] 'A\|a\|d+' has a description over 72 characters$/);
		expectError(await list(['A title that is too long!|a']), 400, "choices[0] 'A title that is too long!|a' has a title over 24 characters");
	});

	test('at most 10 sections and 10 items per list', async () => {
		const list = (choices: string[]) => menu({ type: 'list', text: 'x', listButton: 'Open', choices });
		const items = (n: number) => Array.from({ length: n }, (_, i) => `Item ${i}|i${i}`);
		expect((await list(items(10))).status).toBe(200);
		expectError(await list(items(11)), 400, 'choices: a list menu has at most 10 items (got 11)');
		const sections = Array.from({ length: 11 }, (_, i) => [`[S${i}]`, `Item ${i}|i${i}`]).flat();
		expectError(await list(sections), 400, 'choices: a list menu has at most 10 sections (got 11); choices: a list menu has at most 10 items (got 11)');
	});
});

describe('POST /send/menu: polls', () => {
	test('options, selectableCount 1 by default, an empty tally', async () => {
		const res = await menu({ type: 'poll', text: 'Which colour?', choices: ['Red', ' Green ', 'Blue'] });
		expect(res.status).toBe(200);
		const content = { poll: { options: ['Red', 'Green', 'Blue'], selectableCount: 1, votes: {} } };
		expect(res.body.data).toMatchObject({ messageType: 'poll', text: 'Which colour?', content });
		expect((await findOne(res.body.data.id)).content).toEqual(content);
		const multi = await menu({ type: 'poll', text: 'Which?', choices: ['A', 'B', 'C'], selectableCount: 3 });
		expect(multi.body.data.content.poll.selectableCount).toBe(3);
	});

	test('2 to 12 unique options; selectableCount within them; poll-only fields', async () => {
		const poll = (choices: unknown[], extra = {}) => menu({ type: 'poll', text: 'Q', choices, ...extra });
		expectError(await poll(['Only']), 400, 'choices: a poll has 2 to 12 options (got 1)');
		expectError(await poll(Array.from({ length: 13 }, (_, i) => `O${i}`)), 400, 'choices: a poll has 2 to 12 options (got 13)');
		expectError(await poll(['Red', 'Red']), 400, "choices[1] 'Red' repeats the option of choices[0]");
		expectError(await poll(['Red', '  ']), 400, "choices[1] '  ' must be the text of a poll option");
		expectError(await poll(['A', 'B'], { selectableCount: 3 }), 400, 'selectableCount must be between 1 and the number of options (2)');
		expectError(await poll(['A', 'B'], { selectableCount: 0 }), 400, 'selectableCount must be at least 1');
		expectError(await poll(['A', 'B'], { footerText: 'f' }), 400, 'footerText applies to button and list menus only');
		expectError(await poll(['A', 'B'], { imageButton: 'https://x.example/i.png' }), 400, 'imageButton applies to button menus only');
		expectError(await menu({ type: 'button', text: 'x', choices: ['A|a'], selectableCount: 1 }), 400, 'selectableCount applies to poll menus only');
		expectError(await menu({ type: 'poll', text: 'Q'.repeat(256), choices: ['A', 'B'] }), 400, 'text must be at most 255 characters long for a poll');
	});
});

describe('POST /send/menu: fields and common fields', () => {
	test('type carousel points to /send/carousel', async () => {
		expectError(await menu({ type: 'carousel', text: 'x', choices: ['A|a'] }), 400,
			"type 'carousel' is sent with POST /send/carousel, as cards with an image and buttons each");
	});

	test('required fields and types are named', async () => {
		expectError(await api.post('/send/menu', {}, { token: dev.token }), 400, 'number is required; type is required; text is required; choices is required');
		expectError(await menu({ type: 'grid', text: 'x', choices: ['A|a'] }), 400, 'type must be one of: "button", "list", "poll", "carousel"');
		expectError(await menu({ type: 'button', text: 'x', choices: [] }), 400, 'choices must have at least 1 items');
		expectError(await menu({ type: 'button', text: 'x', choices: 'A|a' }), 400, 'choices must be an array (got string "A|a")');
		expectError(await menu({ type: 'poll', text: 'x', choices: ['A', 'B'.repeat(4097)] }), 400, 'choices[1] must be at most 4096 characters long');
		expectError(await menu({ type: 'poll', text: 'x', choices: Array.from({ length: 101 }, (_, i) => `O${i}`) }), 400, 'choices must have at most 100 items');
		expectError(await menu({ type: 'button', text: 'x', choices: ['A|a'], imageButton: 'file:///etc/passwd' }), 400, 'imageButton must be an http(s) URL');
		expectError(await menu({ type: 'button', text: 'x', choices: ['A|a'], footerText: 'f'.repeat(61) }), 400, 'footerText must be at most 60 characters long');
		expectError(await menu({ type: 'button', text: 'x', choices: ['A|a'], buttons: [] }), 400, 'body has unknown field(s): buttons');
	});

	test('async, replyid and mentions work as on the other send routes', async () => {
		const first = (await menu({ type: 'poll', text: 'First?', choices: ['A', 'B'] })).body.data;
		const res = await menu({ type: 'button', text: 'Later', choices: ['Ok|ok'], async: true, replyid: first.id, mentions: '5511988880002' });
		expect(res.body.data).toMatchObject({ status: 'queued', quoted: first.id, mentions: ['5511988880002@s.whatsapp.net'] });
		const sent = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status !== 'queued' && m;
		});
		expect(sent.content.buttons).toEqual([{ type: 'REPLY', text: 'Ok', id: 'ok' }]);
	});

	test('a number off the network is a 500 and nothing is stored; a bad token a 401', async () => {
		const number = '5511988880099';
		await sandbox.post('/numbers', { number, onNetwork: false }, { key: ADMIN_KEY });
		expectError(await menu({ number, type: 'poll', text: 'Q', choices: ['A', 'B'] }), 500, `${number} is not on the network`);
		expect((await api.post('/message/find', { chatid: number }, { token: dev.token })).body.data.total).toBe(0);
		expectError(await menu({ type: 'poll', text: 'Q', choices: ['A', 'B'] }, 'nope'), 401, 'invalid instance token');
	});

	test('a menu to another device of this server arrives there with its choices', async () => {
		const other = await connectedDevice(server, 'menu-peer');
		const res = await menu({ number: other.phone, type: 'list', text: 'Pick', listButton: 'Open', choices: ['[Sizes]', 'Small|s', 'Large|l|Extra'] });
		expect(res.status).toBe(200);
		const copy = await findOne(res.body.data.messageid, other.token);
		expect(copy).toMatchObject({ fromMe: false, chatid: dev.jid, messageType: 'list', text: 'Pick', content: res.body.data.content });
	});
});

describe('POST /send/carousel', () => {
	test('cards with title, body, image and buttons are stored; find shows them', async () => {
		const res = await carousel({
			text: 'New arrivals',
			carousel: [
				card('Red shoes\nLeather, sizes 36-44\nFree shipping', [
					{ type: 'REPLY', text: 'Buy', id: 'buy-red' },
					{ type: 'url', text: 'Details', id: 'https://shop.example.com/red' },
				]),
				card('Blue shoes', [
					{ type: 'REPLY', text: 'Buy', id: 'buy-blue' },
					{ type: 'COPY', text: 'Coupon', id: 'BLUE5' },
					{ type: 'CALL', text: 'Call', id: '+55 11 4000-1234' },
				], 'http://shop.example.com/2.jpg'),
			],
			track_id: 'c-1',
		});
		expect(res.status).toBe(200);
		const content = {
			cards: [
				{
					title: 'Red shoes',
					body: 'Leather, sizes 36-44\nFree shipping',
					image: 'https://shop.example.com/1.jpg',
					buttons: [
						{ type: 'REPLY', text: 'Buy', id: 'buy-red' },
						{ type: 'URL', text: 'Details', id: 'https://shop.example.com/red' },
					],
				},
				{
					title: 'Blue shoes',
					body: '',
					image: 'http://shop.example.com/2.jpg',
					buttons: [
						{ type: 'REPLY', text: 'Buy', id: 'buy-blue' },
						{ type: 'COPY', text: 'Coupon', id: 'BLUE5' },
						{ type: 'CALL', text: 'Call', id: '+551140001234' },
					],
				},
			],
		};
		expect(res.body.data).toMatchObject({ messageType: 'carousel', text: 'New arrivals', fromMe: true, content, track_id: 'c-1' });
		expect((await findOne(res.body.data.id)).content).toEqual(content);
	});

	test('each problem names its path', async () => {
		const one = (buttons: unknown[], extra = {}) => carousel({ text: 'x', carousel: [{ ...card('A', buttons), ...extra }] });
		expectError(await carousel({ text: 'x', carousel: [card('A', [{ type: 'REPLY', text: 'Ok', id: 'ok' }]), card('B', [{ type: 'URL', text: 'Go', id: 'not a url' }])] }), 400,
			'carousel[1].buttons[0].id must be an http(s) URL for a URL button');
		expectError(await one([{ type: 'CALL', text: 'Call', id: 'call me' }]), 400,
			'carousel[0].buttons[0].id must be a phone number (8 to 15 digits, country code first) for a CALL button');
		expectError(await one([{ type: 'COPY', text: 'Code', id: ' ' }]), 400, 'carousel[0].buttons[0].id must be a code of 1 to 256 characters to copy for a COPY button');
		expectError(await one([{ type: 'REPLY', text: 'Ok', id: 'i'.repeat(257) }]), 400, 'carousel[0].buttons[0].id must be a reply id of 1 to 256 characters for a REPLY button');
		expectError(await one([{ type: 'LINK', text: 'Go', id: 'x' }]), 400, 'carousel[0].buttons[0].type must be one of: "REPLY", "URL", "COPY", "CALL"');
		expectError(await one([{ type: 'REPLY', id: 'x' }]), 400, 'carousel[0].buttons[0].text is required');
		expectError(await one([{ type: 'REPLY', text: 'Ok' }]), 400, 'carousel[0].buttons[0].id is required');
		expectError(await carousel({ text: 'x', carousel: [card('  ', [{ type: 'REPLY', text: 'Ok', id: 'ok' }])] }), 400, 'carousel[0].text must be at least 1 characters long');
		expectError(await one([]), 400, 'carousel[0].buttons must have at least 1 items');
		expectError(await one(Array.from({ length: 4 }, (_, i) => ({ type: 'REPLY', text: 'B', id: `b${i}` }))), 400, 'carousel[0].buttons must have at most 3 items');
		expectError(await one([{ type: 'REPLY', text: 'Ok', id: 'ok' }], { image: 'ftp://x.example/i.png' }), 400, 'carousel[0].image must be an http(s) URL');
		expectError(await carousel({ text: 'x', carousel: [{ text: 'A', buttons: [{ type: 'REPLY', text: 'Ok', id: 'ok' }] }] }), 400, 'carousel[0].image is required');
		expectError(await carousel({ text: 'x', carousel: [{ image: 'https://x.example/i.png', buttons: [{ type: 'REPLY', text: 'Ok', id: 'ok' }], title: 'T' }] }), 400,
			'carousel[0].text is required; carousel[0] has unknown field(s): title');
		expectError(await carousel({ text: 'x', carousel: [card('A', [{ type: 'REPLY', text: 'Buy', id: 'buy' }]), card('B', [{ type: 'REPLY', text: 'Buy', id: 'buy' }])] }), 400,
			"carousel[1].buttons[0].id repeats the reply id 'buy' of carousel[0].buttons[0]");
	});

	test('1 to 10 cards; text and carousel required; placeholders are not taken', async () => {
		const cards = (n: number) => Array.from({ length: n }, (_, i) => card(`Card ${i}`, [{ type: 'REPLY', text: 'Pick', id: `c${i}` }]));
		expect((await carousel({ text: 'ten', carousel: cards(10) })).status).toBe(200);
		expectError(await carousel({ text: 'x', carousel: cards(11) }), 400, 'carousel must have at most 10 items');
		expectError(await carousel({ text: 'x', carousel: [] }), 400, 'carousel must have at least 1 items');
		expectError(await api.post('/send/carousel', {}, { token: dev.token }), 400, 'number is required; text is required; carousel is required');
		expectError(await carousel({ text: 'x', carousel: cards(1), placeholders: { a: 'b' } }), 400, 'body has unknown field(s): placeholders');
	});
});

describe('POST /sandbox/v1/devices/{name}/answer', () => {
	test('a contact taps a reply button: the menu is read and a buttonsResponse quoting it arrives', async () => {
		const sent = (await menu({ type: 'button', text: 'Confirm?', choices: ['Yes|yes', 'No|no', 'Site|url:https://x.example'] })).body.data;
		const res = await answer({ id: sent.id, choice: 'no' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			chatid: CONTACT_JID,
			sender: CONTACT_JID,
			fromMe: false,
			messageType: 'buttonsResponse',
			text: 'No',
			quoted: sent.id,
			status: 'delivered',
			content: { selectedId: 'no', selectedText: 'No' },
			wasSentByApi: false,
		});
		expect((await findOne(res.body.data.id)).content).toEqual({ selectedId: 'no', selectedText: 'No' });
		expect((await findOne(sent.id)).status).toBe('read');
		const chat = server.services.store.chats.get(storedDevice(server.services.store, 'menus')!.id, CONTACT_JID)!;
		expect(chat.last_msg_type).toBe('buttonsResponse');

		expectError(await answer({ id: sent.id, choice: 'https://x.example' }), 400, "choice: the menu has no reply button with the id 'https://x.example' (reply ids: 'yes', 'no')");
		expectError(await answer({ id: sent.id, choice: ['yes'] }), 400, 'choice: a button menu is answered with one id, not a list');
	});

	test('a contact picks a list item: listResponse with its id, title and section', async () => {
		const sent = (await menu({ type: 'list', text: 'Menu', listButton: 'Open', choices: ['[Drinks]', 'Coffee|coffee|Hot', 'Tea|tea'] })).body.data;
		const res = await answer({ id: sent.messageid, choice: 'tea' });
		expect(res.body.data).toMatchObject({
			messageType: 'listResponse',
			text: 'Tea',
			quoted: sent.id,
			content: { selectedId: 'tea', selectedText: 'Tea', selectedSection: 'Drinks' },
		});
		expectError(await answer({ id: sent.id, choice: 'Tea' }), 400, "choice: the list has no item with the id 'Tea' (ids: 'coffee', 'tea')");
	});

	test('contacts vote on a poll: pollVote messages, and the tally in the poll content', async () => {
		const single = (await menu({ type: 'poll', text: 'Colour?', choices: ['Red', 'Green', 'Blue'] })).body.data;
		const vote = await answer({ id: single.id, choice: 'Green' });
		expect(vote.body.data).toMatchObject({ messageType: 'pollVote', text: 'Green', quoted: single.id, content: { selectedOptions: ['Green'] } });
		expect((await findOne(single.id)).content.poll.votes).toEqual({ Green: [CONTACT_JID] });
		// A new vote replaces the contact's earlier one.
		await answer({ id: single.id, choice: 'Blue' });
		expect((await findOne(single.id)).content.poll.votes).toEqual({ Blue: [CONTACT_JID] });
		expectError(await answer({ id: single.id, choice: ['Red', 'Blue'] }), 400, 'choice: the poll lets a contact choose at most 1 option(s) (got 2)');
		expectError(await answer({ id: single.id, choice: 'Purple' }), 400, "choice: the poll has no option 'Purple' (options: 'Red', 'Green', 'Blue')");

		const multi = (await menu({ type: 'poll', text: 'Toppings?', choices: ['Cheese', 'Ham', 'Olives'], selectableCount: 2 })).body.data;
		const both = await answer({ id: multi.id, choice: ['Cheese', 'Olives'] });
		expect(both.body.data).toMatchObject({ text: 'Cheese, Olives', content: { selectedOptions: ['Cheese', 'Olives'] } });
		expect((await findOne(multi.id)).content.poll).toEqual({
			options: ['Cheese', 'Ham', 'Olives'],
			selectableCount: 2,
			votes: { Cheese: [CONTACT_JID], Olives: [CONTACT_JID] },
		});
		expectError(await answer({ id: multi.id, choice: ['Ham', 'Ham'] }), 400, 'choice: an option can be chosen only once');
		// An empty vote takes the contact's vote back.
		const none = await answer({ id: multi.id, choice: [] });
		expect(none.body.data).toMatchObject({ text: null, content: { selectedOptions: [] } });
		expect((await findOne(multi.id)).content.poll.votes).toEqual({});
	});

	test('a carousel reply button: buttonsResponse with the card index', async () => {
		const sent = (
			await carousel({
				text: 'Pick one',
				carousel: [card('A', [{ type: 'REPLY', text: 'Take A', id: 'a' }]), card('B', [{ type: 'URL', text: 'See', id: 'https://x.example' }, { type: 'REPLY', text: 'Take B', id: 'b' }])],
			})
		).body.data;
		const res = await answer({ id: sent.id, choice: 'b' });
		expect(res.body.data).toMatchObject({ messageType: 'buttonsResponse', text: 'Take B', quoted: sent.id, content: { selectedId: 'b', selectedText: 'Take B', cardIndex: 1 } });
		expectError(await answer({ id: sent.id, choice: 'https://x.example' }), 400, "choice: the carousel has no reply button with the id 'https://x.example' (reply ids: 'a', 'b')");
	});

	test('webhooks see the answer as a messages event and the new tally as messages_update', async () => {
		const receiver = await startReceiver();
		try {
			const hooked = await connectedDevice(server, 'menus-hooked');
			await api.post('/devices/menus-hooked/webhook', { url: receiver.url, events: ['messages', 'messages_update'] }, { key: ADMIN_KEY });
			const poll = (await menu({ type: 'poll', text: 'Q?', choices: ['A', 'B'] }, hooked.token)).body.data;
			const vote = (await answer({ id: poll.id, choice: 'B' }, 'menus-hooked')).body.data;
			const inbound = await eventually(() => receiver.events('messages').find((h) => h.body.data.id === vote.id));
			expect(inbound.body.data).toMatchObject({ messageType: 'pollVote', fromMe: false, quoted: poll.id, content: { selectedOptions: ['B'] } });
			const tally = await eventually(() => receiver.events('messages_update').find((h) => h.body.data.poll));
			expect(tally.body.data).toMatchObject({ id: poll.id, poll: { options: ['A', 'B'], votes: { B: [CONTACT_JID] } } });
		} finally {
			await receiver.close();
		}
	});

	test('only menus this device sent to a contact can be answered', async () => {
		expectError(await answer({ id: 'nope', choice: 'x' }), 400, 'id: no message sent by this device has the id "nope"');
		const text = (await api.post('/send/text', { number: CONTACT, text: 'plain' }, { token: dev.token })).body.data;
		expectError(await answer({ id: text.id, choice: 'x' }), 400, `id: message "${text.id}" is a text message, not a menu`);
		const inbound = (await sandbox.post('/devices/menus/inbound', { from: CONTACT, text: 'hi' }, { key: ADMIN_KEY })).body.data;
		expectError(await answer({ id: inbound.id, choice: 'x' }), 400, `id: no message sent by this device has the id "${inbound.id}"`);
		const queued = (await menu({ type: 'button', text: 'Later', choices: ['Ok|ok'], async: true, delay: 60000 })).body.data;
		expectError(await answer({ id: queued.id, choice: 'ok' }), 400, `id: menu "${queued.id}" is queued and cannot be answered`);
		const peer = await connectedDevice(server, 'answer-peer');
		const toPeer = (await menu({ number: peer.phone, type: 'button', text: 'Hi', choices: ['Ok|ok'] })).body.data;
		expectError(await answer({ id: toPeer.id, choice: 'ok' }), 400, `id: menu "${toPeer.id}" went to device 'answer-peer' of this server, not to a simulated contact`);
		expectError(await answer({ id: toPeer.id }), 400, 'choice is required');
		expectError(await answer({ id: toPeer.id, choice: 7 }), 400, 'choice must be an id, an option, or a list of poll options');
		expectError(await answer({ id: toPeer.id, choice: 'ok' }, 'nobody'), 404, "device 'nobody' not found");
		const unauth = await sandbox.post('/devices/menus/answer', { id: toPeer.id, choice: 'ok' });
		expectError(unauth, 401, /^missing API key/);
	});
});
