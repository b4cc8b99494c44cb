import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { toBody } from './editorFields';

const operations: Operation[] = [
	{
		name: 'Submit',
		value: 'submitFeedback',
		action: 'Submit feedback',
		description: 'Send feedback about the editor',
		routing: siteRouting('POST', '/builder/v1/feedback/submit'),
		fields: [
			{
				displayName: 'Message',
				name: 'feedbackMessage',
				type: 'string',
				typeOptions: { rows: 4 },
				required: true,
				default: '',
				placeholder: 'e.g. The new panel is great',
				description: 'The feedback text',
				routing: toBody('message'),
			},
			{
				displayName: 'Rating',
				name: 'feedbackRating',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 5 },
				default: 0,
				description: 'From 1 to 5; 0 for none',
				routing: toBody('rating'),
			},
		],
	},
];

export const feedback: Resource = { name: 'Feedback', value: 'feedback', operations };
