import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { mediaType } from './type';

/**
 * Whether a browser may show a stored file in place. The files come from anyone who can send a device a
 * message or upload to the site, and they are served from the site's own origin: only types a browser
 * displays without running anything are inline (images other than SVG, audio, video, plain text). Every
 * other type (HTML, XHTML, SVG, XML, JavaScript, PDF, Flash, unknown ones) is a download.
 */
export function displayableInline(mimetype: string): boolean {
	const type = mimetype.split(';')[0].trim().toLowerCase();
	if (type === 'text/plain') return true;
	const [top] = type.split('/');
	// `image/svg+xml` (and any other XML image) is a document that runs scripts.
	if (top === 'image') return !type.includes('svg') && !type.includes('xml');
	return top === 'audio' || top === 'video';
}

/**
 * Stored media at the public address messages show as `fileURL` (and site media as `source_url`, its
 * resized copies as `media_details.sizes.*.source_url`); the random id is the capability.
 */
export function serveFiles(app: FastifyInstance, services: Services) {
	app.get<{ Params: { id: string; name: string } }>('/wp-content/uploads/wdm/:id/:name', (request, reply) => {
		// A site image's resized copies are served beside it, under the original's id with their own names.
		const file = services.store.attachments.sizeFile(request.params.id, request.params.name) ?? services.store.files.byId(request.params.id);
		if (!file) return reply.code(404).send({ code: 'not_found', message: 'no such file', data: { status: 404 } });
		// A stored type that is not one media type (kept from before types were checked) is served as bytes.
		const type = mediaType(file.mimetype) ?? 'application/octet-stream';
		const disposition = displayableInline(type) ? 'inline' : 'attachment';
		return (
			reply
				.header('content-type', type)
				.header('content-length', file.size)
				.header('content-disposition', `${disposition}; filename="${encodeURIComponent(file.file_name)}"`)
				// The browser keeps the stored type (no sniffing a "text/plain" into HTML), and whatever it
				// opens runs in a unique origin without scripts: never with the site's cookies.
				.header('x-content-type-options', 'nosniff')
				.header('content-security-policy', 'sandbox')
				.header('cache-control', 'public, max-age=31536000, immutable')
				.send(file.data)
		);
	});
}
