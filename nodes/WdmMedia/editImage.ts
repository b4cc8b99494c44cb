import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { siteResponse, throwSiteError, siteSend } from '../shared/site';
import { ITEM_FIELDS, mediaIdField } from './fields';

/**
 * preSend of Edit Image: the site edits the file named by `src` (one of the image's URLs), so the item
 * is read first for its `source_url`; Rotate and Crop become WordPress's `modifiers`, in that order.
 */
async function editRequest(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const read = (await this.helpers.httpRequestWithAuthentication.call(this, 'wdmSiteApi', {
		...options,
		method: 'GET',
		url: options.url.replace(/\/edit$/, ''),
		body: undefined,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
	throwSiteError.call(this, read);
	const modifiers: IDataObject[] = [];
	const angle = Number(this.getNodeParameter('rotate', 0));
	if (angle) modifiers.push({ type: 'rotate', args: { angle } });
	const crop = this.getNodeParameter('crop', {}) as IDataObject;
	if (Object.keys(crop).length) {
		modifiers.push({ type: 'crop', args: { left: crop.left ?? 0, top: crop.top ?? 0, width: crop.width ?? 100, height: crop.height ?? 100 } });
	}
	const src = (read.body as IDataObject).source_url;
	return { ...options, body: { src, ...(modifiers.length ? { modifiers } : {}) } };
}

const percentOf = (displayName: string, name: string, fallback: number, description: string) => ({
	displayName,
	name,
	type: 'number' as const,
	default: fallback,
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
	description,
});

export const editImage: Operation = {
	name: 'Edit Image',
	value: 'editImage',
	action: 'Rotate or crop an image into a new media item',
	description: 'Rotate and/or crop an image; the site stores the result as a new media item and keeps the original',
	routing: {
		request: { method: 'POST', url: '/cms/v2/media/{id}/edit' },
		send: siteSend('/cms/v2/media/{id}/edit', ITEM_FIELDS, editRequest),
		output: { postReceive: [siteResponse] },
	},
	fields: [
		mediaIdField,
		{
			displayName: 'Rotate',
			name: 'rotate',
			type: 'options',
			options: [
				{ name: 'No Rotation', value: 0 },
				{ name: 'A Quarter Clockwise (90°)', value: 90 },
				{ name: 'Half a Turn (180°)', value: 180 },
				{ name: 'A Quarter Counter-Clockwise (270°)', value: 270 },
			],
			default: 0,
			description: 'Turn the image, before the crop',
		},
		{
			displayName: 'Crop',
			name: 'crop',
			type: 'collection',
			placeholder: 'Add Crop Side',
			default: {},
			description: 'The part of the (rotated) image to keep, in percent of its width and height',
			options: [
				percentOf('Height (%)', 'height', 100, 'Height of the part kept'),
				percentOf('Left (%)', 'left', 0, 'Where the part kept starts, from the left'),
				percentOf('Top (%)', 'top', 0, 'Where the part kept starts, from the top'),
				percentOf('Width (%)', 'width', 100, 'Width of the part kept'),
			],
		},
	],
};
