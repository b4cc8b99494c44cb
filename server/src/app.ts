import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { clientErrors, frameworkErrors, installErrorHandling, registerRoutes, rewriteRequest } from './http/dispatch';
import { serveCors } from './http/cors';
import { serveMcpTransport } from './site/engine/mcp';
import { serveOptions } from './http/options';
import { anonymousBodyLimit, connectionOptions } from './http/limits';
import { limitConnections } from './http/connections';
import { limitQueryStrings } from './http/input-limits';
import { apiRootLink } from './http/rest-server';
import { serveFiles } from './media/serve';
import { serveOpenApi } from './http/openapi';
import { protectPages } from './http/page-headers';
import { healthProbes, serveObservability } from './observability';
import { registerDashboard } from './dashboard';
import { serveFrontPage } from './site/front-page';
import { ensureAdmin, type AdminAccess } from './bootstrap';
import { routes } from './routes';
import { Services, type ServiceOptions } from './services';
import type { AnswerCheck } from './http/route';

/** What a server is built with besides its settings: the services' options, and the test suites' contract check. */
export interface AppOptions extends ServiceOptions {
	/** Run on every answer of a route of the table (`http/dispatch.ts`). */
	checkAnswer?: AnswerCheck;
}

export interface App {
	app: FastifyInstance;
	services: Services;
	/** Base URL the server answers on, e.g. `http://127.0.0.1:8080`. */
	url: string;
	/** The API key and site application password of the `admin` user when this start created it (first start on an empty store). */
	admin?: AdminAccess;
	close(): Promise<void>;
}

/** Builds the Fastify instance over a freshly opened store. Nothing runs until `start`. */
export function buildApp(config: Config, options: AppOptions = {}): { app: FastifyInstance; services: Services } {
	const app = Fastify({
		logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
		// The route table's routes set their own (`http/limits.ts`); everything else takes small bodies.
		bodyLimit: anonymousBodyLimit(config),
		...connectionOptions(config),
		routerOptions: { ignoreTrailingSlash: true },
		rewriteUrl: rewriteRequest,
		frameworkErrors: frameworkErrors(config),
		clientErrorHandler: clientErrors,
	});
	const services = new Services(config, app.log, options);
	// Past a connection cap a new connection reaches no handler: health probes are answered, the rest closed.
	const connections = limitConnections(app.server, config, healthProbes(services));
	installErrorHandling(app, config);
	limitQueryStrings(app, config);
	registerRoutes(app, routes, services, options.checkAnswer);
	serveOptions(app, routes, services);
	serveMcpTransport(app);
	serveCors(app);
	serveFiles(app, services);
	protectPages(app);
	serveOpenApi(app, routes);
	serveObservability(app, services, connections);
	registerDashboard(app);
	serveFrontPage(app, services);
	// In-flight requests finish first (Fastify closes the listener), then background work is persisted.
	app.addHook('onClose', async () => services.stop());
	// Their answers close their connections: an idle keep-alive socket would hold the shutdown open
	// until the keep-alive timeout (72 s).
	let closing = false;
	app.addHook('preClose', (done) => {
		closing = true;
		done();
	});
	app.addHook('onSend', (request, reply, payload, done) => {
		if (closing) reply.header('connection', 'close');
		// WordPress sends where its REST API is on every REST answer without links of its own (discovery by `Link`).
		if (request.url.startsWith('/wp-json/')) apiRootLink(reply, services.baseUrl);
		done(null, payload);
	});
	return { app, services };
}

/** Builds the app, listens, and starts the background workers (pairing, send queue, webhooks). */
export async function startApp(config: Config, options: AppOptions = {}): Promise<App> {
	const { app, services } = buildApp(config, options);
	try {
		await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
	} catch (error) {
		await app.close();
		throw listenError(error as NodeJS.ErrnoException, config);
	}
	// Only once the server listens: a start that fails must not create the admin whose credentials it never shows.
	const admin = ensureAdmin(services.store, { apiKey: config.adminKey, appPassword: config.adminAppPassword });
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : config.port;
	const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
	const url = `http://${host}:${port}`;
	services.baseUrl = (config.publicUrl ?? url).replace(/\/$/, '');
	services.start();
	// In-flight requests may finish, up to the grace period: a client that stops sending (or reading) would
	// otherwise hold the shutdown open for ever.
	const close = async () => {
		const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs).unref();
		try {
			await app.close();
		} finally {
			clearTimeout(cut);
		}
	};
	return { app, services, url, admin, close };
}

/** Why the server could not listen, in words that say what to do. */
function listenError(error: NodeJS.ErrnoException, config: Config): Error {
	const where = `${config.host}:${config.port}`;
	switch (error.code) {
		case 'EADDRINUSE':
			return new Error(`cannot listen on ${where}: the port is in use (another wdm-server? stop it, or choose another --port)`);
		case 'EACCES':
			return new Error(`cannot listen on ${where}: permission denied (ports below 1024 need privileges; choose another --port)`);
		case 'EADDRNOTAVAIL':
		case 'ENOTFOUND':
			return new Error(`cannot listen on ${where}: ${config.host} is not an address of this machine (--host)`);
		default:
			return new Error(`cannot listen on ${where}: ${error.message}`);
	}
}
