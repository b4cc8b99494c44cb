import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { pagedSearchField, sendJson, withPreSend } from './editorFields';

const ROUTE = '/builder/v1/send-event';

const operations: Operation[] = [
	{
		name: 'Get Many',
		value: 'getEvents',
		action: 'Get many events',
		description: "Get the credential user's editor events, newest first",
		routing: siteListRouting(ROUTE),
		fields: [...siteReturnAllFields, pagedSearchField],
	},
	{
		name: 'Send',
		value: 'sendEvent',
		action: 'Send an event',
		description: 'Record an event of the editor',
		routing: withPreSend(siteRouting('POST', ROUTE), sendJson('eventData', 'body', 'event_data', 'Event Data')),
		fields: [
			{
				displayName: 'Event Data',
				name: 'eventData',
				type: 'json',
				required: true,
				default: '{\n  "event": "editor_loaded"\n}',
				description: 'The event as a JSON object; its "event" member names it',
			},
		],
	},
];

export const events: Resource = { name: 'Event', value: 'event', operations };
