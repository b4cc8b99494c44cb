import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { commonExcept, numberField, sendOptions } from './fields';

/** The gateway takes the numbers as one comma-separated string; an expression may also give that string itself. */
async function phoneNumberList(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const numbers = this.getNodeParameter('phoneNumbers') as string | string[];
	options.body = { ...(options.body as IDataObject), phoneNumber: ([] as string[]).concat(numbers).join(',') };
	return options;
}

export const sendContact: Operation = {
	name: 'Send Contact',
	value: 'sendContact',
	action: 'Send a contact card',
	description: 'Send a contact card (vCard) with one or more phone numbers',
	routing: gatewayRouting('POST', '/send/contact'),
	fields: [
		numberField,
		{
			displayName: 'Full Name',
			name: 'fullName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Ana Souza',
			description: 'Name shown on the card',
			routing: { send: { type: 'body', property: 'fullName' } },
		},
		{
			displayName: 'Phone Numbers',
			name: 'phoneNumbers',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Phone Number' },
			required: true,
			default: [],
			placeholder: 'e.g. 5511999990001',
			description: "The contact's phone numbers, in international format (country code first)",
			routing: { send: { preSend: [phoneNumberList] } },
		},
		sendOptions(
			[
				{
					displayName: 'Organization',
					name: 'organization',
					type: 'string',
					default: '',
					placeholder: 'e.g. Acme Ltda',
					routing: { send: { type: 'body', property: 'organization' } },
				},
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					default: '',
					placeholder: 'e.g. name@email.com',
					routing: { send: { type: 'body', property: 'email' } },
				},
				{
					displayName: 'Website',
					name: 'url',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com',
					description: 'An http(s) address shown on the card',
					routing: { send: { type: 'body', property: 'url' } },
				},
			],
			commonExcept('placeholders'),
		),
	],
};
