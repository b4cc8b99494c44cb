import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { EventStreams } from './streams';

/**
 * Where the build puts the dashboard's bundle (`server/dashboard/build.mjs`): `server/dist/dashboard-ui`,
 * the same folder whether this module runs compiled (`dist/dashboard`) or from source (`src/dashboard`).
 */
export const DASHBOARD_ASSETS = path.join(__dirname, '..', '..', 'dist', 'dashboard-ui');

/**
 * The sandbox dashboard at `/dashboard/`: static files built ahead of time, which sign in with the
 * user's API key and use the gateway and sandbox routes like any client. Also sets up the event
 * streams those routes open (`GET /sandbox/v1/events`), ended first when the server closes.
 */
export function registerDashboard(app: FastifyInstance, assets = DASHBOARD_ASSETS) {
	const streams = new EventStreams();
	app.decorate('eventStreams', streams);
	app.addHook('preClose', (done) => {
		streams.closeAll();
		done();
	});
	// In a scope of its own, so that @fastify/static's reply decorators stay out of the other routes.
	app.register(async (scope) => {
		if (!fs.existsSync(path.join(assets, 'index.html'))) {
			for (const url of ['/dashboard', '/dashboard/*']) {
				scope.get(url, (_request, reply) => reply.code(503).type('text/plain').send('The dashboard is not built: run `npm run build -w server`.\n'));
			}
			return;
		}
		await scope.register(fastifyStatic, { root: assets, prefix: '/dashboard/', index: false });
		// The page itself, at `/dashboard` and `/dashboard/` alike (the router ignores a trailing slash).
		scope.get('/dashboard', (_request, reply) => reply.sendFile('index.html'));
	});
}
