import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { listField } from '../shared/lists';
import { siteRouting } from '../shared/site';

/** What the builder keeps for the signed-in user (`/builder/v1/user-data/current-user`). */

const ROUTE = '/builder/v1/user-data/current-user';

const operations: Operation[] = [
	{
		name: 'Get Current User Data',
		value: 'getCurrentUserData',
		action: 'Get the current user data',
		description: "Get the signed-in user's builder data: the messages they suppressed",
		routing: siteRouting('GET', ROUTE),
	},
	{
		name: 'Update Current User Data',
		value: 'updateCurrentUserData',
		action: 'Update the current user data',
		description: "Replace the signed-in user's suppressed messages",
		routing: siteRouting('PATCH', ROUTE),
		fields: [
			listField(
				{
					displayName: 'Suppressed Messages',
					name: 'suppressedMessages',
					item: 'Message',
					description: 'Keys of the messages not to show again; an empty list shows them all again',
					bodyKey: 'suppressedMessages',
				},
				{
					displayName: 'Message Key',
					name: 'message',
					type: 'string',
					default: '',
					placeholder: 'e.g. image_optimization',
					description: 'Key of a message; an expression may give several (an array, or separated by commas)',
				},
			),
		],
	},
];

export const userData: Resource = { name: 'User Data', value: 'userData', description: "The signed-in user's builder data", operations };
