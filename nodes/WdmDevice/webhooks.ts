import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { deviceField, deviceUrl } from './devices';

/** The gateway's webhook events (the values it takes), with the names and descriptions the editor shows. */
export const webhookEventOptions = [
	{ name: 'Chat Labels', value: 'chat_labels', description: 'A label put on or taken off a chat' },
	{ name: 'Chats', value: 'chats', description: 'A chat created or changed' },
	{ name: 'Connection', value: 'connection', description: 'The device connected, disconnected or logged out' },
	{ name: 'Contacts', value: 'contacts', description: 'A contact added or changed' },
	{ name: 'Groups', value: 'groups', description: 'A group created, or its participants or settings changed' },
	{ name: 'Labels', value: 'labels', description: 'A label created, edited or deleted' },
	{ name: 'Message Updates', value: 'messages_update', description: 'A message delivered, read, answered (menus), failed, edited or deleted' },
	{ name: 'Messages', value: 'messages', description: 'A message received, or sent by the device' },
	{ name: 'Presence', value: 'presence', description: 'A contact typing, recording or online' },
];

export const excludeMessagesOptions = [
	{ name: 'Sent by API', value: 'wasSentByApi' },
	{ name: 'Not Sent by API', value: 'wasNotSentByApi' },
	{ name: 'From Me', value: 'fromMeYes' },
	{ name: 'Not From Me', value: 'fromMeNo' },
	{ name: 'In Groups', value: 'isGroupYes' },
	{ name: 'Not in Groups', value: 'isGroupNo' },
];

export const getWebhooks: Operation = {
	name: 'Get Webhooks',
	value: 'getWebhooks',
	action: 'Get the webhooks of a device',
	description: "List a device's webhook subscriptions",
	routing: gatewayRouting('GET', deviceUrl('/webhook')),
	fields: [deviceField],
};

export const setWebhook: Operation = {
	name: 'Set Webhook',
	value: 'setWebhook',
	action: 'Set a webhook of a device',
	description: 'Add, update or delete a webhook subscription (identified by its URL)',
	routing: gatewayRouting('POST', deviceUrl('/webhook')),
	fields: [
		deviceField,
		{
			displayName: 'Mode',
			name: 'mode',
			type: 'options',
			default: 'add',
			options: [
				{ name: 'Add or Update', value: 'add' },
				{ name: 'Update Only (Fail if Missing)', value: 'update' },
				{ name: 'Delete', value: 'delete' },
			],
			routing: { send: { type: 'body', property: 'action' } },
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/abc',
			description: 'Where events are POSTed',
			routing: { send: { type: 'body', property: 'url' } },
		},
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			default: [],
			options: webhookEventOptions,
			description: 'Events to receive; none selected means all',
			displayOptions: { hide: { mode: ['delete'] } },
			routing: { send: { type: 'body', property: 'events' } },
		},
		{
			displayName: 'Exclude Messages',
			name: 'excludeMessages',
			type: 'multiOptions',
			default: [],
			options: excludeMessagesOptions,
			description: 'Messages events not to receive, e.g. those your own workflow sent',
			displayOptions: { hide: { mode: ['delete'] } },
			routing: { send: { type: 'body', property: 'excludeMessages' } },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { hide: { mode: ['delete'] } },
			options: [
				{
					displayName: 'Enabled',
					name: 'enabled',
					type: 'boolean',
					default: true,
					description: 'Whether events are delivered to this URL',
					routing: { send: { type: 'body', property: 'enabled' } },
				},
				{
					displayName: 'Secret',
					name: 'secret',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					placeholder: 'whsec_…',
					description: 'Standard Webhooks signing secret; a new subscription without one gets a generated secret, shown once',
					routing: { send: { type: 'body', property: 'secret' } },
				},
			],
		},
	],
};
