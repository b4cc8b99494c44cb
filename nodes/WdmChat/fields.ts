import type { INodeProperties } from 'n8n-workflow';
import { numberField } from '../WdmMessage/fields';

/** Fields that the chat and contact operations share. */

export const chatField: INodeProperties = {
	...numberField,
	displayName: 'Chat',
	description: 'The chat: international number (country code first), a user JID (…@s.whatsapp.net) or a group JID (…@g.us)',
};

/** A yes/no field sent as a body property, on by default. */
export const flag = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: true,
	description,
	routing: { send: { type: 'body', property: name } },
});
