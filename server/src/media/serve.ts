import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

/** Stored media at the public address messages show as `fileURL`; the random id is the capability. */
export function serveFiles(app: FastifyInstance, services: Services) {
	app.get<{ Params: { id: string; name: string } }>('/wp-content/uploads/wdm/:id/:name', (request, reply) => {
		const file = services.store.files.byId(request.params.id);
		if (!file) return reply.code(404).send({ code: 'not_found', message: 'no such file', data: { status: 404 } });
		return reply
			.header('content-type', file.mimetype)
			.header('content-length', file.size)
			.header('content-disposition', `inline; filename="${encodeURIComponent(file.file_name)}"`)
			.header('cache-control', 'public, max-age=31536000, immutable')
			.send(file.data);
	});
}
