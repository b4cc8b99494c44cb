import type { FastifyInstance } from 'fastify';

/**
 * The headers of the two pages a person opens in a browser, `/dashboard` and `/docs` (Swagger UI), and
 * of everything under them: both hold credentials typed in (an API key, an application password), so no
 * other site may frame them (clickjacking), nothing but their own files may run or style them, the
 * browser keeps each file's declared type, and no address of theirs goes out as a referrer.
 * Set in one place, on the request, so every answer under those paths carries them.
 */

/**
 * Only the server's own scripts and styles (both pages load theirs from files: no inline script), and
 * images from it or `data:` (the QR code, Swagger UI's icons); requests go to the server alone. Swagger
 * UI also sets inline styles as it renders, so `/docs` allows those (styles only: scripts stay strict).
 */
export const pagePolicy = (inlineStyles: boolean) =>
	[
		"default-src 'self'",
		"script-src 'self'",
		inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self' data:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	].join('; ');

const PAGES: Array<{ path: RegExp; inlineStyles: boolean }> = [
	{ path: /^\/dashboard(?:[/?#]|$)/, inlineStyles: false },
	{ path: /^\/docs(?:[/?#]|$)/, inlineStyles: true },
];

/** The headers of a page (`inlineStyles` for Swagger UI's). */
export const pageHeaders = (inlineStyles: boolean) => ({
	'content-security-policy': pagePolicy(inlineStyles),
	'x-frame-options': 'DENY',
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'no-referrer',
});

export function protectPages(app: FastifyInstance) {
	app.addHook('onRequest', (request, reply, done) => {
		const page = PAGES.find((p) => p.path.test(request.url));
		if (page) reply.headers(pageHeaders(page.inlineStyles));
		done();
	});
}
