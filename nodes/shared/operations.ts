import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** One operation of a node: its entry in the Operation list and the fields it shows. */
export interface Operation extends INodePropertyOptions {
	value: string;
	action: string;
	fields?: INodeProperties[];
}

/**
 * The node's `operation` selector followed by every operation's fields, each field shown only for
 * its own operation. Operations live one per file beside the node; this is where they meet.
 */
export function operationProperties(operations: Operation[]): INodeProperties[] {
	// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default is computed: the first operation
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: operations.map(({ fields: _fields, ...option }) => option),
		default: operations[0].value,
	};
	const fields = operations.flatMap((op) =>
		(op.fields ?? []).map((field) => ({
			...field,
			displayOptions: { ...field.displayOptions, show: { ...field.displayOptions?.show, operation: [op.value] } },
		})),
	);
	return [selector, ...fields];
}
