import type { App } from '../../server/src/app';
import { ADMIN_KEY, findMessage, type Client, type Device } from '../helpers/server';
import { gatewayWithDevice, nodeRunner } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** WDM Message: Send Menu and Send Carousel, filled in through fixed collections, run by n8n's engine. */

const TO = '5511966660001';
const TO_JID = `${TO}@s.whatsapp.net`;

let server: App;
let shop: Device;
let harness: N8nTestHarness;
let api: Client;
let sandbox: Client;

const message = nodeRunner('CUSTOM.wdmMessage', () => harness);
const stored = (id: string) => findMessage(api, shop.token, id);

beforeAll(async () => {
	({ server, api, sandbox, shop, harness } = await gatewayWithDevice('menu-shop'));
});
afterAll(() => server.close());

describe('sendMenu', () => {
	test('buttons of every kind, with footer, image and placeholders', async () => {
		const sent = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'button',
			text: 'Hi {{name}}, what next?',
			buttons: {
				button: [
					{ label: 'Talk to us', kind: 'reply', value: 'talk' },
					{ label: 'Coupon', kind: 'copy', value: 'SAVE10' },
					{ label: 'Call', kind: 'call', value: '+55 11 4000-1234' },
				],
			},
			options: {
				footerText: 'Shop',
				imageButton: 'https://shop.example.com/banner.png',
				placeholders: { values: [{ name: 'name', value: 'Ana' }] },
				track_source: 'n8n',
			},
		});
		expect(sent.error).toBeUndefined();
		const json = sent.items[0].json;
		const content = {
			buttons: [
				{ type: 'REPLY', text: 'Talk to us', id: 'talk' },
				{ type: 'COPY', text: 'Coupon', id: 'SAVE10' },
				{ type: 'CALL', text: 'Call', id: '+551140001234' },
			],
			footerText: 'Shop',
			imageButton: 'https://shop.example.com/banner.png',
		};
		expect(json).toMatchObject({ chatid: TO_JID, messageType: 'button', text: 'Hi Ana, what next?', content, track_source: 'n8n' });
		expect((await stored(json.id as string)).content).toEqual(content);

		const url = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'button',
			text: 'See',
			buttons: { button: [{ label: 'Site', kind: 'url', value: 'https://shop.example.com' }] },
		});
		expect(url.error).toBeUndefined();
		expect(url.items[0].json.content).toMatchObject({ buttons: [{ type: 'URL', text: 'Site', id: 'https://shop.example.com' }] });
	});

	test('a list of sections with items; the contact picks one in the sandbox', async () => {
		const sent = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'list',
			text: 'Our menu',
			listButton: 'Open menu',
			sections: {
				section: [
					{ title: '', rows: { row: [{ title: 'Daily special', id: 'special', description: '' }] } },
					{
						title: 'Drinks',
						rows: {
							row: [
								{ title: 'Coffee', id: 'coffee', description: 'Hot' },
								{ title: 'Tea', id: 'tea' },
							],
						},
					},
				],
			},
			options: { footerText: 'Prices in BRL' },
		});
		expect(sent.error).toBeUndefined();
		const content = {
			listButton: 'Open menu',
			footerText: 'Prices in BRL',
			sections: [
				{ title: null, rows: [{ id: 'special', title: 'Daily special', description: null }] },
				{
					title: 'Drinks',
					rows: [
						{ id: 'coffee', title: 'Coffee', description: 'Hot' },
						{ id: 'tea', title: 'Tea', description: null },
					],
				},
			],
		};
		const id = sent.items[0].json.id as string;
		expect((await stored(id)).content).toEqual(content);
		const picked = await sandbox.post('/devices/menu-shop/answer', { id, choice: 'coffee' }, { key: ADMIN_KEY });
		expect(picked.body.data).toMatchObject({ messageType: 'listResponse', quoted: id, content: { selectedId: 'coffee' } });
	});

	test('a section after the first needs a title', async () => {
		const sent = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'list',
			text: 'x',
			listButton: 'Open',
			sections: { section: [{ title: 'A', rows: { row: [{ title: 'One', id: '1' }] } }, { title: ' ', rows: { row: [{ title: 'Two', id: '2' }] } }] },
		});
		expect(sent.error).toMatchObject({ message: 'Section 2 needs a title' });
	});

	test('a poll with several selectable options', async () => {
		const sent = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'poll',
			text: 'Toppings?',
			pollOptions: { option: [{ text: 'Cheese' }, { text: 'Ham' }, { text: 'Olives' }] },
			selectableCount: 2,
		});
		expect(sent.error).toBeUndefined();
		const poll = { options: ['Cheese', 'Ham', 'Olives'], selectableCount: 2, votes: {} };
		expect(sent.items[0].json).toMatchObject({ messageType: 'poll', text: 'Toppings?', content: { poll } });
		expect((await stored(sent.items[0].json.id as string)).content).toEqual({ poll });
	});

	test("the gateway's message for a bad choice, and onError 'continueRegularOutput'", async () => {
		const bad = await message({
			operation: 'sendMenu',
			number: TO,
			menuType: 'button',
			text: 'x',
			buttons: { button: [{ label: 'Site', kind: 'url', value: 'not a url' }] },
		});
		expect(bad.error).toMatchObject({ httpCode: '400', message: "choices[0] 'Site|url:not a url' needs an http(s) URL after 'url:'" });

		const noOptions = await message({ operation: 'sendMenu', number: TO, menuType: 'poll', text: 'Q' });
		expect(noOptions.error).toMatchObject({ httpCode: '400', message: 'choices must have at least 1 items' });

		const items = await message(
			{ operation: 'sendMenu', number: TO, menuType: 'poll', text: 'Q', pollOptions: { option: [{ text: '={{ $json.a }}' }, { text: '={{ $json.b }}' }] } },
			{ input: [{ json: { a: 'Yes', b: 'No' } }, { json: { a: 'Yes', b: 'Yes' } }], onError: 'continueRegularOutput' },
		);
		expect(items.error).toBeUndefined();
		expect(items.items).toHaveLength(2);
		expect(items.items[0].json).toMatchObject({ messageType: 'poll', content: { poll: { options: ['Yes', 'No'] } } });
		expect(items.items[1].json).toEqual({ error: "choices[1] 'Yes' repeats the option of choices[0]" });
	});
});

describe('sendCarousel', () => {
	test('cards with title, body, image and buttons; a reply is answered in the sandbox', async () => {
		const sent = await message({
			operation: 'sendCarousel',
			number: TO,
			text: 'New arrivals',
			cards: {
				card: [
					{
						title: 'Red shoes',
						body: 'Leather',
						image: 'https://shop.example.com/red.jpg',
						buttons: {
							button: [
								{ type: 'REPLY', text: 'Buy', value: 'buy-red' },
								{ type: 'URL', text: 'Details', value: 'https://shop.example.com/red' },
							],
						},
					},
					{
						title: 'Blue shoes',
						image: 'https://shop.example.com/blue.jpg',
						buttons: {
							button: [
								{ type: 'COPY', text: 'Coupon', value: 'BLUE5' },
								{ type: 'CALL', text: 'Call', value: '5511400012345' },
							],
						},
					},
				],
			},
			options: { track_id: 'launch' },
		});
		expect(sent.error).toBeUndefined();
		const content = {
			cards: [
				{
					title: 'Red shoes',
					body: 'Leather',
					image: 'https://shop.example.com/red.jpg',
					buttons: [
						{ type: 'REPLY', text: 'Buy', id: 'buy-red' },
						{ type: 'URL', text: 'Details', id: 'https://shop.example.com/red' },
					],
				},
				{
					title: 'Blue shoes',
					body: '',
					image: 'https://shop.example.com/blue.jpg',
					buttons: [
						{ type: 'COPY', text: 'Coupon', id: 'BLUE5' },
						{ type: 'CALL', text: 'Call', id: '+5511400012345' },
					],
				},
			],
		};
		const json = sent.items[0].json;
		expect(json).toMatchObject({ messageType: 'carousel', text: 'New arrivals', track_id: 'launch', content });
		expect((await stored(json.id as string)).content).toEqual(content);
		const answer = await sandbox.post('/devices/menu-shop/answer', { id: json.id, choice: 'buy-red' }, { key: ADMIN_KEY });
		expect(answer.body.data).toMatchObject({ messageType: 'buttonsResponse', content: { selectedId: 'buy-red', cardIndex: 0 } });
	});

	test('a card problem comes back with its path', async () => {
		const sent = await message({
			operation: 'sendCarousel',
			number: TO,
			text: 'x',
			cards: { card: [{ title: 'A', image: 'https://shop.example.com/a.jpg', buttons: { button: [{ type: 'URL', text: 'Go', value: 'nowhere' }] } }] },
		});
		expect(sent.error).toMatchObject({ httpCode: '400', message: 'carousel[0].buttons[0].id must be an http(s) URL for a URL button' });
		const empty = await message({ operation: 'sendCarousel', number: TO, text: 'x' });
		expect(empty.error).toMatchObject({ httpCode: '400', message: 'carousel must have at least 1 items' });
	});
});
