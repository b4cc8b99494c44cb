import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { messageIdField, numberField } from './fields';

/** Remove Reaction sends the empty emoji, which is how the gateway takes a reaction back. */
async function sendRemoval(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('removeReaction', false)) options.body = { ...(options.body as IDataObject), text: '' };
	return options;
}

export const react: Operation = {
	name: 'React',
	value: 'react',
	action: 'React to a message',
	description: 'React to a message with an emoji, or remove your reaction',
	routing: gatewayRouting('POST', '/message/react'),
	fields: [
		numberField,
		messageIdField,
		{
			displayName: 'Remove Reaction',
			name: 'removeReaction',
			type: 'boolean',
			default: false,
			description: 'Whether to remove your reaction from the message instead of reacting',
			routing: { send: { preSend: [sendRemoval] } },
		},
		{
			// Not `text`: a reaction is no message text (one declaration per name, see fieldProperties).
			displayName: 'Emoji',
			name: 'reaction',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 👍',
			description:
				'One emoji; it replaces your earlier reaction on the message. To remove your reaction, turn on Remove Reaction (an expression that gives an empty value does the same).',
			displayOptions: { show: { removeReaction: [false] } },
			routing: { send: { type: 'body', property: 'text' } },
		},
	],
};
