import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, JsonObject } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { binaryOutputField } from '../shared/gateway';
import { siteResponse, siteSend } from '../shared/site';
import { ITEM_FIELDS, mediaIdField } from './fields';

/** The last segment of a file URL, decoded (`Team%20photo.png` -> `Team photo.png`). */
function fileNameOf(url: string): string {
	const last = new URL(url).pathname.split('/').pop() || 'file';
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/** The sizes the site makes of an image (WordPress's defaults), smallest first; `full` is the file itself. */
const IMAGE_SIZES = [
	{ name: 'Full Size', value: 'full', description: 'The file as the site serves it' },
	{ name: 'Thumbnail (150x150, Cropped)', value: 'thumbnail' },
	{ name: 'Medium (Fits 300x300)', value: 'medium' },
	{ name: 'Medium Large (768 Wide)', value: 'medium_large' },
	{ name: 'Large (Fits 1024x1024)', value: 'large' },
	{ name: '1536x1536', value: '1536x1536' },
	{ name: '2048x2048', value: '2048x2048' },
];

/** The URL and type of the size asked for: that size when the site made it, else the file itself (as WordPress falls back). */
function fileOf(json: INodeExecutionData['json'], size: string): { url: unknown; mimeType: unknown } {
	const sizes = (json.media_details as { sizes?: Record<string, { source_url?: string; mime_type?: string }> } | undefined)?.sizes;
	const made = size !== 'full' ? sizes?.[size] : undefined;
	return made?.source_url ? { url: made.source_url, mimeType: made.mime_type } : { url: json.source_url, mimeType: json.mime_type };
}

/** Fetches each media item's file (`source_url`, or the size asked for) into a binary property of the item. */
async function fileToBinary(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const property = this.getNodeParameter('outputPropertyName', 'data') as string;
	const size = this.getNodeParameter('imageSize', 'full') as string;
	return await Promise.all(
		items.map(async (item) => {
			const { url, mimeType: type } = fileOf(item.json, size);
			if (typeof url !== 'string' || url === '') {
				throw new NodeOperationError(this.getNode(), `Media item ${item.json.id} has no file to download`, { itemIndex: this.getItemIndex() });
			}
			const response = (await this.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'arraybuffer',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as IN8nHttpFullResponse;
			if (response.statusCode >= 400) {
				throw new NodeApiError(this.getNode(), { url, statusCode: response.statusCode } as JsonObject, {
					message: `The file of media item ${item.json.id} could not be downloaded (HTTP ${response.statusCode})`,
					httpCode: String(response.statusCode),
					itemIndex: this.getItemIndex(),
				});
			}
			const mimeType = typeof type === 'string' && type ? type : undefined;
			const binary = await this.helpers.prepareBinaryData(Buffer.from(response.body as ArrayBuffer), fileNameOf(url), mimeType);
			return { json: item.json, binary: { [property]: binary } };
		}),
	);
}

export const download: Operation = {
	name: 'Download',
	value: 'download',
	action: 'Download a media file',
	description: "Download a media item's file as binary data",
	routing: {
		request: { method: 'GET', url: '/cms/v2/media/{id}' },
		send: siteSend('/cms/v2/media/{id}', ITEM_FIELDS),
		output: { postReceive: [siteResponse, fileToBinary] },
	},
	fields: [
		mediaIdField,
		binaryOutputField,
		{
			displayName: 'Image Size',
			name: 'imageSize',
			type: 'options',
			options: IMAGE_SIZES,
			default: 'full',
			description: 'For an image, which of its sizes to download; a size the site did not make (the image is smaller) gives the full file',
		},
	],
};
