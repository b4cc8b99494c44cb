import type { INodeProperties } from 'n8n-workflow';
import { unwrapData } from '../shared/gateway';
import { numberField } from '../WdmMessage/fields';

/** Fields and routing that the chat and contact operations share. */

export const chatField: INodeProperties = {
	...numberField,
	displayName: 'Chat',
	description: 'The chat: international number (country code first), a user JID (…@s.whatsapp.net) or a group JID (…@g.us)',
};

/** A POST whose answer is the item (or, for an array, the items). */
export const post = (url: string) => ({ request: { method: 'POST' as const, url }, output: { postReceive: [unwrapData] } });

/** A yes/no field sent as a body property, on by default. */
export const flag = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: true,
	description,
	routing: { send: { type: 'body', property: name } },
});
