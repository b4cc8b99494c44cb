import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, JsonObject } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { binaryOutputField } from '../shared/gateway';
import { siteResponse, siteRoute, toSiteNamespace } from '../shared/site';
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

/** Fetches each media item's file (`source_url`) into a binary property of the item. */
async function fileToBinary(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const property = this.getNodeParameter('outputPropertyName', 'data') as string;
	return await Promise.all(
		items.map(async (item) => {
			const url = item.json.source_url;
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
			const mimeType = typeof item.json.mime_type === 'string' && item.json.mime_type ? item.json.mime_type : undefined;
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
		request: { method: 'GET', url: siteRoute('/cms/v2/media/{id}', ITEM_FIELDS) },
		send: { preSend: [toSiteNamespace] },
		output: { postReceive: [siteResponse, fileToBinary] },
	},
	fields: [mediaIdField, binaryOutputField],
};
