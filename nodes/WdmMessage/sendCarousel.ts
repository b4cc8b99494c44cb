import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { unwrapData } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions } from './fields';

interface CardEntry {
	title: string;
	body?: string;
	image: string;
	buttons?: { button?: Array<{ type: string; text: string; value: string }> };
}

/** Builds the spec's `carousel` array: a card's text is its title, a line break, then its body. */
async function carouselCards(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const cards = this.getNodeParameter('cards.card', []) as CardEntry[];
	const carousel = cards.map((card) => ({
		text: card.body ? `${card.title}\n${card.body}` : card.title,
		image: card.image,
		buttons: (card.buttons?.button ?? []).map((b) => ({ type: b.type, text: b.text, id: b.value })),
	}));
	options.body = { ...(options.body as IDataObject), carousel };
	return options;
}

export const sendCarousel: Operation = {
	name: 'Send Carousel',
	value: 'sendCarousel',
	action: 'Send a carousel of cards',
	description: 'Send cards, each with an image, a text and buttons',
	routing: {
		request: { method: 'POST', url: '/send/carousel' },
		send: { preSend: [carouselCards] },
		output: { postReceive: [unwrapData] },
	},
	fields: [
		numberField,
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			description: 'Message text shown above the cards',
			routing: { send: { type: 'body', property: 'text' } },
		},
		{
			displayName: 'Cards',
			name: 'cards',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Card',
			default: {},
			description: '1 to 10 cards',
			options: [
				{
					displayName: 'Card',
					name: 'card',
					values: [
						{ displayName: 'Title', name: 'title', type: 'string', default: '', description: 'First line of the card' },
						{ displayName: 'Body', name: 'body', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Text under the title' },
						{
							displayName: 'Image URL',
							name: 'image',
							type: 'string',
							default: '',
							placeholder: 'e.g. https://example.com/product.jpg',
							description: 'Image of the card (an http(s) URL)',
						},
						{
							displayName: 'Buttons',
							name: 'buttons',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true },
							placeholder: 'Add Button',
							default: {},
							description: '1 to 3 buttons',
							options: [
								{
									displayName: 'Button',
									name: 'button',
									values: [
										{
											displayName: 'Type',
											name: 'type',
											type: 'options',
											default: 'REPLY',
											options: [
												{ name: 'Reply', value: 'REPLY', description: "The contact's answer carries the button's ID" },
												{ name: 'Open URL', value: 'URL', description: 'Opens a web page' },
												{ name: 'Copy Code', value: 'COPY', description: 'Copies a code, such as a coupon' },
												{ name: 'Call Number', value: 'CALL', description: 'Calls a phone number' },
											],
										},
										{ displayName: 'Text', name: 'text', type: 'string', default: '', description: 'Label of the button (up to 20 characters)' },
										{
											displayName: 'Value',
											name: 'value',
											type: 'string',
											default: '',
											description: 'Reply: the button ID the answer carries; Open URL: an http(s) URL; Copy Code: the code; Call Number: the phone number',
										},
									],
								},
							],
						},
					],
				},
			],
		},
		sendOptions([], ALL_COMMON.filter((name) => name !== 'placeholders')),
	],
};
