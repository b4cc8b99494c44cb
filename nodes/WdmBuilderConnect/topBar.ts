import type { INodeProperties } from 'n8n-workflow';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

const bodyText = (displayName: string, name: string, description: string, placeholder: string, rows = 1): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder,
	description,
	...(rows > 1 ? { typeOptions: { rows } } : {}),
	routing: { send: { type: 'body', property: name } },
});

/** The admin top bar: an app's notifications, and feedback to the builder team. */
export const topBar: Resource = {
	name: 'Top Bar',
	value: 'topBar',
	operations: [
		{
			name: 'Get Notifications',
			value: 'getNotifications',
			action: 'Get the notifications of an app',
			description: 'Get the notifications of an app (installs, updates, connection), newest first',
			routing: siteRouting('GET', '/builder-one/v1/top-bar/notifications'),
			fields: [
				{
					displayName: 'App Name',
					name: 'appName',
					type: 'string',
					required: true,
					default: 'builder',
					placeholder: 'e.g. builder',
					description: 'The app: a plugin slug, "theme" or "builder-one"',
					routing: { send: { type: 'query', property: 'app_name' } },
				},
				{
					displayName: 'App Version',
					name: 'appVersion',
					type: 'string',
					required: true,
					default: '',
					placeholder: 'e.g. 3.31.2',
					description: 'The version the app runs; notifications about later versions are left out',
					routing: { send: { type: 'query', property: 'app_version' } },
				},
			],
		},
		{
			name: 'Send Feedback',
			value: 'sendFeedback',
			action: 'Send feedback about a product',
			description: 'Send feedback about a product to the builder team',
			routing: siteRouting('POST', '/builder-one/v1/top-bar/feedback'),
			fields: [
				bodyText('Product', 'product', 'The product the feedback is about', 'e.g. builder'),
				bodyText('Subject', 'subject', 'What part of the product it is about', 'e.g. Editor'),
				bodyText('Title', 'title', 'A short summary', 'e.g. Saving is slow'),
				bodyText('Description', 'description', 'The feedback itself', 'e.g. Saving a long page takes several seconds', 4),
				{
					displayName: 'Options',
					name: 'feedbackOptions',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [
						{
							displayName: 'Country Code',
							name: 'countryCode',
							type: 'string',
							default: '',
							placeholder: 'e.g. BR',
							description: 'Two-letter country code of the sender',
							routing: { send: { type: 'body', property: 'countryCode' } },
						},
					],
				},
			],
		},
	],
};
