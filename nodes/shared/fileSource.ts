import type { IExecuteSingleFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { binaryInput } from './gateway';

/** The parameters that hold a file's URL and its Base64 content (the binary property is `binaryPropertyName`). */
export interface FileSourceParameters {
	url: string;
	base64: string;
}

/**
 * The `source` selector and its fields: a file in a binary property of the input item, a URL the
 * gateway downloads, or Base64 content (`readFileSource` reads them). `more` adds sources of the
 * operation's own, handled before it reads the file.
 */
export function fileSourceFields(
	noun: 'file' | 'image',
	parameters: FileSourceParameters,
	urlPlaceholder: string,
	more: INodePropertyOptions[] = [],
): INodeProperties[] {
	const label = noun[0].toUpperCase() + noun.slice(1);
	const showFor = (source: string) => ({ show: { source: [source] } });
	return [
		{
			displayName: `${label} Source`,
			name: 'source',
			type: 'options',
			default: 'binary',
			options: [
				{ name: 'Binary Input', value: 'binary', description: 'A binary property of the input item' },
				{ name: 'URL', value: 'url', description: `The gateway downloads the ${noun}` },
				{ name: 'Base64', value: 'base64', description: 'Base64 content or a data URI' },
				...more,
			],
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			description: `Name of the binary property that holds the ${noun}`,
			displayOptions: showFor('binary'),
		},
		{
			displayName: `${label} URL`,
			name: parameters.url,
			type: 'string',
			default: '',
			required: true,
			placeholder: urlPlaceholder,
			description: `Public URL of the ${noun}; the gateway downloads it`,
			displayOptions: showFor('url'),
		},
		{
			displayName: 'Base64 Content',
			name: parameters.base64,
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: `The ${noun} as Base64, or as a data URI (data:image/png;base64,...)`,
			displayOptions: showFor('base64'),
		},
	];
}

/** The chosen file: the input binary property read whole, or the URL or Base64 text as typed in. */
export async function readFileSource(this: IExecuteSingleFunctions, parameters: FileSourceParameters) {
	const source = this.getNodeParameter('source') as string;
	if (source === 'binary') return await binaryInput.call(this, this.getNodeParameter('binaryPropertyName') as string);
	return this.getNodeParameter(source === 'url' ? parameters.url : parameters.base64) as string;
}
