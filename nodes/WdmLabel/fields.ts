import type { INodeProperties } from 'n8n-workflow';

/** The body field each operation sends the label in. */
const LABEL_ID_BODY = '={{ {addChatLabel: "add_labelid", removeChatLabel: "remove_labelid", edit: "labelid"}[$parameter.operation] }}';

/** The label that Add Chat Label, Remove Chat Label and Edit act on: one declaration (see `operationProperties`). */
export const labelIdField: INodeProperties = {
	displayName: 'Label ID',
	name: 'labelId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3',
	description: 'ID of the label (see Get Many)',
	routing: { send: { type: 'body', property: LABEL_ID_BODY } },
};
