import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { REST_PREFIX } from '../http/dispatch';
import { escapeHtml } from './oembed';
import { siteSettings } from './settings';

/**
 * The site's front page, `GET /` (and `HEAD /`): what a WordPress site's home page gives a client that
 * discovers its REST API (`WPAPI.discover`, api-fetch's root): the `Link` header
 * `<…/wp-json/>; rel="https://api.w.org/"`. A person who opens it gets a small page that leads to the
 * API's index, its documentation and the sandbox dashboard, instead of a JSON 404.
 */
export function serveFrontPage(app: FastifyInstance, services: Services) {
	app.get('/', (_request, reply) => {
		const site = siteSettings(services.store);
		const root = `${services.baseUrl}${REST_PREFIX}/`;
		const links: [string, string, string][] = [
			[`${REST_PREFIX}/`, 'REST API index', 'every namespace and route, as WordPress lists them'],
			['/docs', 'API documentation', 'OpenAPI, try each route from the browser'],
			['/dashboard', 'Sandbox dashboard', 'devices, chats and webhook deliveries, live'],
			[`${REST_PREFIX}/wdm/v1`, 'Gateway namespace', 'wdm/v1'],
		];
		const items = links.map(([href, label, about]) => `<li><a href="${href}">${label}</a>: ${about}</li>`).join('\n');
		reply
			.header('Link', `<${root}>; rel="https://api.w.org/"`)
			.type('text/html; charset=utf-8')
			.send(
				`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(site.name)}</title>` +
					`<link rel="https://api.w.org/" href="${root}"></head>\n<body><h1>${escapeHtml(site.name)}</h1>\n<p>${escapeHtml(site.description)}</p>\n<ul>\n${items}\n</ul>\n</body></html>\n`,
			);
	});
}
