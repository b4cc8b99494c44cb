import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions, textField } from './fields';

interface ButtonEntry {
	label: string;
	kind: 'reply' | 'copy' | 'url' | 'call';
	value: string;
}

interface SectionEntry {
	title?: string;
	rows?: { row?: Array<{ title: string; id: string; description?: string }> };
}

/**
 * Builds the spec's `choices` strings from what the person filled in: `label|id`, `label|copy:code`,
 * `label|url:…`, `label|call:…` for buttons; `[section]` and `title|id|description` for lists; the
 * option texts for polls.
 */
async function menuChoices(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const type = this.getNodeParameter('menuType') as string;
	let choices: string[];
	if (type === 'button') {
		const buttons = this.getNodeParameter('buttons.button', []) as ButtonEntry[];
		choices = buttons.map((b) => `${b.label}|${b.kind === 'reply' ? '' : `${b.kind}:`}${b.value}`);
	} else if (type === 'list') {
		const sections = this.getNodeParameter('sections.section', []) as SectionEntry[];
		choices = sections.flatMap((section, i) => {
			const title = section.title?.trim();
			// Items without a heading join the section before them: only the first may go untitled.
			if (!title && i > 0) {
				throw new NodeOperationError(this.getNode(), `Section ${i + 1} needs a title`, {
					itemIndex: this.getItemIndex(),
					description: 'Only the first section of a list may go without a title',
				});
			}
			const rows = (section.rows?.row ?? []).map((r) => `${r.title}|${r.id}${r.description ? `|${r.description}` : ''}`);
			return title ? [`[${title}]`, ...rows] : rows;
		});
	} else {
		choices = (this.getNodeParameter('pollOptions.option', []) as Array<{ text: string }>).map((o) => o.text);
	}
	options.body = { ...(options.body as IDataObject), choices };
	return options;
}

const showFor = (...types: string[]) => ({ show: { menuType: types } });

/** What a button does; the carousel route spells the same kinds in capitals. */
export const BUTTON_KINDS = [
	{ name: 'Reply', value: 'reply', description: "The contact's answer carries the button's ID" },
	{ name: 'Copy Code', value: 'copy', description: 'Copies a code, such as a coupon' },
	{ name: 'Open URL', value: 'url', description: 'Opens a web page' },
	{ name: 'Call Number', value: 'call', description: 'Calls a phone number' },
];

/** What a button's Value holds, by kind. */
export const buttonValueField: INodeProperties = {
	displayName: 'Value',
	name: 'value',
	type: 'string',
	default: '',
	description: 'Reply: the button ID the answer carries; Copy Code: the code; Open URL: an http(s) URL; Call Number: the phone number',
};

const buttonsField: INodeProperties = {
	displayName: 'Buttons',
	name: 'buttons',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Button',
	default: {},
	description: 'Up to 3 buttons',
	displayOptions: showFor('button'),
	options: [
		{
			displayName: 'Button',
			name: 'button',
			values: [
				{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'Text on the button (up to 20 characters)' },
				{ displayName: 'Action', name: 'kind', type: 'options', default: 'reply', options: BUTTON_KINDS },
				buttonValueField,
			],
		},
	],
};

const sectionsField: INodeProperties = {
	displayName: 'Sections',
	name: 'sections',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Section',
	default: {},
	description: 'Up to 10 sections with up to 10 items in all',
	displayOptions: showFor('list'),
	options: [
		{
			displayName: 'Section',
			name: 'section',
			values: [
				{
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					description: 'Section heading (up to 24 characters); the first section may have none',
				},
				{
					displayName: 'Items',
					name: 'rows',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Item',
					default: {},
					options: [
						{
							displayName: 'Item',
							name: 'row',
							values: [
								{ displayName: 'Title', name: 'title', type: 'string', default: '', description: 'Item title (up to 24 characters)' },
								{ displayName: 'ID', name: 'id', type: 'string', default: '', description: "The ID the contact's answer carries" },
								{ displayName: 'Description', name: 'description', type: 'string', default: '', description: 'Shown under the title (optional)' },
							],
						},
					],
				},
			],
		},
	],
};

/** Also WDM Send and Wait's poll, which shows it for its own answer kind. */
export const pollOptionsField: INodeProperties = {
	displayName: 'Poll Options',
	name: 'pollOptions',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Option',
	default: {},
	description: '2 to 12 options',
	displayOptions: showFor('poll'),
	options: [{ displayName: 'Option', name: 'option', values: [{ displayName: 'Text', name: 'text', type: 'string', default: '' }] }],
};

export const sendMenu: Operation = {
	name: 'Send Menu',
	value: 'sendMenu',
	action: 'Send an interactive menu',
	description: 'Send reply buttons, a list or a poll',
	routing: { ...gatewayRouting('POST', '/send/menu'), send: { preSend: [menuChoices] } },
	fields: [
		numberField,
		{
			displayName: 'Menu Type',
			name: 'menuType',
			type: 'options',
			default: 'button',
			options: [
				{ name: 'Buttons', value: 'button', description: 'Up to 3 buttons: reply, copy a code, open a URL, call' },
				{ name: 'List', value: 'list', description: 'A button that opens a list of items in sections' },
				{ name: 'Poll', value: 'poll', description: 'Options the contact votes on' },
			],
			routing: { send: { type: 'body', property: 'type' } },
		},
		textField,
		buttonsField,
		{
			displayName: 'List Button Label',
			name: 'listButton',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. See options',
			description: 'Label of the button that opens the list (up to 20 characters)',
			displayOptions: showFor('list'),
			routing: { send: { type: 'body', property: 'listButton' } },
		},
		sectionsField,
		pollOptionsField,
		{
			displayName: 'Selectable Options',
			name: 'selectableCount',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'How many options a contact may choose',
			displayOptions: showFor('poll'),
			routing: { send: { type: 'body', property: 'selectableCount' } },
		},
		sendOptions(
			[
				{
					displayName: 'Footer',
					name: 'footerText',
					type: 'string',
					default: '',
					description: 'Small text under the buttons or list (up to 60 characters)',
					displayOptions: { show: { '/menuType': ['button', 'list'] } },
					routing: { send: { type: 'body', property: 'footerText' } },
				},
				{
					displayName: 'Image URL',
					name: 'imageButton',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/banner.png',
					description: 'Image shown above the text of a button menu',
					displayOptions: { show: { '/menuType': ['button'] } },
					routing: { send: { type: 'body', property: 'imageButton' } },
				},
			],
			ALL_COMMON,
		),
	],
};
