import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { fileSourceFields, readFileSource } from '../shared/fileSource';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField } from './fields';

const IMAGE_PARAMETERS = { url: 'imageUrl', base64: 'imageBase64' };

/** Puts the chosen image source into `image`: a binary input travels as a data URI, so its MIME type goes with it. */
async function imageFromSource(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	let image = 'remove';
	if (this.getNodeParameter('source') !== 'remove') {
		const file = await readFileSource.call(this, IMAGE_PARAMETERS);
		if (typeof file === 'string') image = file;
		else image = file.mimeType ? `data:${file.mimeType};base64,${file.base64}` : file.base64;
	}
	options.body = { ...(options.body as IDataObject), image };
	return options;
}

export const updateImage: Operation = {
	name: 'Set Image',
	value: 'updateImage',
	action: 'Set the image of a group',
	description: 'Set the group image from a file, or remove it (admins only while the group is locked)',
	routing: { ...gatewayRouting('POST', '/group/updateImage'), send: { preSend: [imageFromSource] } },
	fields: [
		groupJidField,
		...fileSourceFields('image', IMAGE_PARAMETERS, 'e.g. https://example.com/logo.png', [
			{ name: 'Remove Image', value: 'remove', description: 'Remove the current image' },
		]),
	],
};
