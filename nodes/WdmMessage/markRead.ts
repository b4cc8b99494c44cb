import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions, type IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';

/**
 * Sends the Message IDs list as the `id` array. Each entry may itself hold several IDs separated by
 * commas, or be an expression giving a list, so IDs can come from a previous node in any of these forms.
 */
async function sendIdList(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const value = this.getNodeParameter('ids', []) as unknown;
	const entries = (Array.isArray(value) ? value : [value]).flat();
	const ids = entries.flatMap((entry) => String(entry ?? '').split(',')).map((id) => id.trim()).filter(Boolean);
	if (!ids.length) {
		throw new NodeOperationError(this.getNode(), 'Add at least one message ID to mark as read', { itemIndex: this.getItemIndex() });
	}
	options.body = { ...(options.body as IDataObject), id: ids };
	return options;
}

export const markRead: Operation = {
	name: 'Mark as Read',
	value: 'markRead',
	action: 'Mark messages as read',
	description: 'Mark received messages as read; their senders see them read',
	routing: gatewayRouting('POST', '/message/markread'),
	fields: [
		{
			displayName: 'Message IDs',
			name: 'ids',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Message ID' },
			required: true,
			default: [],
			placeholder: 'e.g. 5511999990001:3EB0A1B2C3D4E5F6A7B8C9',
			description:
				'IDs of the received messages to mark as read. An entry may also hold several IDs separated by commas, or an expression that gives a list.',
			routing: { send: { preSend: [sendIdList] } },
		},
	],
};
