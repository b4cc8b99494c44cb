import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions, textField } from './fields';
import { BUTTON_KINDS, buttonValueField } from './sendMenu';

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
	routing: { ...gatewayRouting('POST', '/send/carousel'), send: { preSend: [carouselCards] } },
	fields: [
		numberField,
		textField,
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
											options: BUTTON_KINDS.map((kind) => ({ ...kind, value: kind.value.toUpperCase() })),
										},
										{ displayName: 'Text', name: 'text', type: 'string', default: '', description: 'Label of the button (up to 20 characters)' },
										buttonValueField,
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
