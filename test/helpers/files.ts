import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1x1 PNG, a tiny PDF and a few bytes of Ogg audio: real signatures, so the server's sniffing agrees. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]);

export interface FileServer {
	url: string;
	close(): Promise<void>;
}

/**
 * A local web server for files that a gateway downloads (File Source "URL"): `files` maps a request
 * path (as it arrives, percent-encoded) to its content type and bytes; anything else is a 404.
 */
export async function serveFiles(files: Record<string, [type: string, body: Buffer]>): Promise<FileServer> {
	const server = http.createServer((req, res) => {
		const file = files[req.url ?? ''];
		if (file) return res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
		res.writeHead(404).end('not here');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
