import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { pollOptionsField } from '../WdmMessage/sendMenu';
import { picker } from '../shared/pickers';

/** How the contact answers: in their own words, or by picking one of the choices sent with the question. */
export type AnswerKind = 'text' | 'button' | 'list' | 'poll';

const showFor = (...kinds: AnswerKind[]) => ({ show: { answerKind: kinds } });

export const questionFields: INodeProperties[] = [
	picker('deviceChat', {
		displayName: 'Number',
		name: 'number',
		// Often someone the device has not talked with yet: a number to type.
		mode: 'id',
		description:
			'The contact to ask: pick one of the chats of the device, or give an international number (country code first) or user JID (…@s.whatsapp.net). Only an answer from this chat resumes the workflow.',
	}),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		description: 'The question sent to the contact',
	},
	{
		displayName: 'Answer With',
		name: 'answerKind',
		type: 'options',
		noDataExpression: true,
		default: 'text',
		options: [
			{ name: 'Free Text', value: 'text', description: 'The question goes as a text; any message the contact sends back is the answer' },
			{ name: 'Buttons', value: 'button', description: 'Up to 3 reply buttons; the answer is the button the contact taps' },
			{ name: 'List', value: 'list', description: 'A list of up to 10 items; the answer is the item the contact picks' },
			{ name: 'Poll', value: 'poll', description: 'A poll; the answer is the option(s) the contact votes for' },
		],
	},
	{
		displayName: 'Choices',
		name: 'choices',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Choice',
		default: {},
		description: 'What the contact can pick: buttons take up to 3, a list up to 10',
		displayOptions: showFor('button', 'list'),
		options: [
			{
				displayName: 'Choice',
				name: 'choice',
				values: [
					{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'Text the contact sees (up to 20 characters on a button, 24 in a list)' },
					{ displayName: 'ID', name: 'id', type: 'string', default: '', description: 'What the answer item carries as `choice` when the contact picks this one' },
				],
			},
		],
	},
	{
		displayName: 'List Button',
		name: 'listButton',
		type: 'string',
		default: 'Choose',
		description: 'Label of the button that opens the list',
		displayOptions: showFor('list'),
	},
	{
		...pollOptionsField,
		description: '2 to 12 options; the answer item carries the options voted for as `choice`',
		displayOptions: showFor('poll'),
	},
	{
		displayName: 'Limit Wait Time',
		name: 'limitWaitTime',
		type: 'boolean',
		default: true,
		description: 'Whether the workflow goes on with a timed-out item when no answer comes in time',
	},
	{
		displayName: 'Wait Amount',
		name: 'waitAmount',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1,
		description: 'How long to wait for the answer',
		displayOptions: { show: { limitWaitTime: [true] } },
	},
	{
		displayName: 'Wait Unit',
		name: 'waitUnit',
		type: 'options',
		default: 'hours',
		options: [
			{ name: 'Seconds', value: 'seconds' },
			{ name: 'Minutes', value: 'minutes' },
			{ name: 'Hours', value: 'hours' },
			{ name: 'Days', value: 'days' },
		],
		displayOptions: { show: { limitWaitTime: [true] } },
	},
];

const UNIT_MS: Record<string, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** When the wait ends without an answer, or undefined for no limit. Read from the first item, as the question is. */
export function deadlineOf(ctx: IExecuteFunctions, now = Date.now()): Date | undefined {
	if (!ctx.getNodeParameter('limitWaitTime', 0)) return undefined;
	const amount = ctx.getNodeParameter('waitAmount', 0) as number;
	const unit = ctx.getNodeParameter('waitUnit', 0) as string;
	if (!(amount > 0)) throw new NodeOperationError(ctx.getNode(), 'Wait Amount must be a positive number', { itemIndex: 0 });
	return new Date(now + amount * UNIT_MS[unit]);
}

/** The gateway request that sends the question: `/send/text`, or `/send/menu` with the choices as the spec writes them. */
export function questionRequest(ctx: IExecuteFunctions, number: string): { url: string; body: IDataObject } {
	const kind = ctx.getNodeParameter('answerKind', 0) as AnswerKind;
	const text = ctx.getNodeParameter('message', 0) as string;
	if (kind === 'text') return { url: '/send/text', body: { number, text } };
	if (kind === 'poll') {
		const options = (ctx.getNodeParameter('pollOptions.option', 0, []) as Array<{ text: string }>).map((o) => o.text);
		return { url: '/send/menu', body: { number, type: 'poll', text, choices: options } };
	}
	const choices = ctx.getNodeParameter('choices.choice', 0, []) as Array<{ label: string; id: string }>;
	const missing = choices.findIndex((c) => !c.label.trim() || !c.id.trim());
	if (missing >= 0) {
		throw new NodeOperationError(ctx.getNode(), `Choice ${missing + 1} needs a label and an ID`, {
			itemIndex: 0,
			description: "The ID is what the answer item carries when the contact picks that choice",
		});
	}
	// `label|id`: a reply button, or a list item (the spec's `choices` strings).
	const body: IDataObject = { number, type: kind, text, choices: choices.map((c) => `${c.label}|${c.id}`) };
	if (kind === 'list') body.listButton = ctx.getNodeParameter('listButton', 0) as string;
	return { url: '/send/menu', body };
}
