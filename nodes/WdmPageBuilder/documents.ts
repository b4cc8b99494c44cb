import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

const operations: Operation[] = [
	{
		name: 'Import Media',
		value: 'importDocumentMedia',
		action: 'Import the media of a document',
		description: "Turn the images of a document's builder data (data: URIs, the site's own media) into media items and point the data at them",
		routing: siteRouting('POST', '/builder/v1/documents/{id}/media/import', { id: 'documentId' }),
		fields: [
			{
				displayName: 'Document ID',
				name: 'documentId',
				type: 'number',
				required: true,
				default: 0,
				typeOptions: { minValue: 1 },
				description: 'ID of the post, page, template or component',
			},
		],
	},
];

export const documents: Resource = { name: 'Document', value: 'document', operations };
