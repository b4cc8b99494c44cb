import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { picker } from '../shared/pickers';

/** The body field each operation sends the label in. */
const LABEL_ID_BODY: Record<string, string> = { addChatLabel: 'add_labelid', removeChatLabel: 'remove_labelid', edit: 'labelid' };

async function labelIdToBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const key = LABEL_ID_BODY[this.getNodeParameter('operation') as string];
	options.body = { ...(options.body as IDataObject), [key]: this.getNodeParameter('labelId', undefined, { extractValue: true }) };
	return options;
}

/** The label that Add Chat Label, Remove Chat Label and Edit act on: one declaration (see `fieldProperties`). */
export const labelIdField: INodeProperties = picker('label', {
	displayName: 'Label',
	name: 'labelId',
	description: 'The label: pick it from the list, or give its ID (Get Many lists them)',
	routing: { send: { preSend: [labelIdToBody] } },
});
