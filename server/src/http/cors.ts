import type { FastifyInstance } from 'fastify';
import { REST_PREFIX } from './dispatch';

/**
 * Cross-origin answers for browser clients of the REST API, as WordPress's `rest_send_cors_headers` and
 * `serve_request` send them: the caller's origin reflected, every method, the request headers clients
 * send (WordPress's list, plus the MCP transport's), and the headers they read exposed. Unlike
 * WordPress, no `Access-Control-Allow-Credentials`: the site signs in by an Authorization header a client
 * sets itself, never by cookies, so another origin's page cannot read an answer made with credentials a
 * browser would add on its own.
 */
const ALLOW_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const EXPOSE_HEADERS = 'X-WP-Total, X-WP-TotalPages, Link, Allow, Mcp-Session-Id';

export function serveCors(app: FastifyInstance) {
	app.addHook('onSend', (request, reply, payload, done) => {
		const origin = request.headers.origin;
		if (origin && request.url.startsWith(`${REST_PREFIX}/`)) {
			reply.header('access-control-allow-origin', origin);
			reply.header('access-control-allow-methods', ALLOW_METHODS);
			reply.header('access-control-allow-headers', ALLOW_HEADERS);
			reply.header('access-control-expose-headers', EXPOSE_HEADERS);
			reply.header('vary', 'Origin');
		}
		done(null, payload);
	});
}
