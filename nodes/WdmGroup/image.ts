import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { binaryInput } from '../shared/gateway';
import { groupJidField, post } from './fields';

/** Puts the chosen image source into `image`: a binary input travels as a data URI, so its MIME type goes with it. */
async function imageFromSource(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const source = this.getNodeParameter('source') as string;
	let image: string;
	if (source === 'binary') {
		const file = await binaryInput.call(this, this.getNodeParameter('binaryPropertyName') as string);
		image = file.mimeType ? `data:${file.mimeType};base64,${file.base64}` : file.base64;
	} else if (source === 'remove') image = 'remove';
	else image = this.getNodeParameter(source === 'url' ? 'imageUrl' : 'imageBase64') as string;
	options.body = { ...(options.body as IDataObject), image };
	return options;
}

const showFor = (source: string) => ({ show: { source: [source] } });

export const updateImage: Operation = {
	name: 'Set Image',
	value: 'updateImage',
	action: 'Set the image of a group',
	description: 'Set the group image from a file, or remove it (admins only while the group is locked)',
	routing: { ...post('/group/updateImage'), send: { preSend: [imageFromSource] } },
	fields: [
		groupJidField,
		{
			displayName: 'Image Source',
			name: 'source',
			type: 'options',
			default: 'binary',
			options: [
				{ name: 'Binary Input', value: 'binary', description: 'An image in a binary property of the input item' },
				{ name: 'URL', value: 'url', description: 'The gateway downloads the image' },
				{ name: 'Base64', value: 'base64', description: 'Base64 content or a data URI' },
				{ name: 'Remove Image', value: 'remove', description: 'Remove the current image' },
			],
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			description: 'Name of the binary property that holds the image',
			displayOptions: showFor('binary'),
		},
		{
			displayName: 'Image URL',
			name: 'imageUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/logo.png',
			displayOptions: showFor('url'),
		},
		{
			displayName: 'Base64 Content',
			name: 'imageBase64',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			displayOptions: showFor('base64'),
		},
	],
};
