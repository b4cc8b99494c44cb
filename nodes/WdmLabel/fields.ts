import type { INodeProperties } from 'n8n-workflow';
import { picker } from '../shared/pickers';

/** The body field each operation sends the label in. */
const LABEL_ID_BODY = '={{ {addChatLabel: "add_labelid", removeChatLabel: "remove_labelid", edit: "labelid"}[$parameter.operation] }}';

/** The label that Add Chat Label, Remove Chat Label and Edit act on: one declaration (see `operationProperties`). */
export const labelIdField: INodeProperties = picker('label', {
	displayName: 'Label',
	name: 'labelId',
	description: 'The label: pick it from the list, or give its ID (Get Many lists them)',
	routing: { send: { type: 'body', property: LABEL_ID_BODY } },
});
