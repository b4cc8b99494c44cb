import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1x1 PNG, a tiny PDF and a few bytes of Ogg audio: real signatures, so the server's sniffing agrees. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]);

export interface FileServer {
	url: string;
	/** The paths requested, in order. */
	requested: string[];
	close(): Promise<void>;
}

/**
 * A local web server for files that a gateway downloads (File Source "URL"): `files` maps a request
 * path (as it arrives, percent-encoded) to its content type and bytes; anything else is a 404.
 */
export async function serveFiles(files: Record<string, [type: string, body: Buffer]>): Promise<FileServer> {
	const requested: string[] = [];
	const server = http.createServer((req, res) => {
		requested.push(req.url ?? '');
		const file = files[req.url ?? ''];
		if (file) return res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
		res.writeHead(404).end('not here');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requested,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/**
 * A JPEG with IPTC fields (record 2: 105 headline, 120 caption, 80 byline, 116 copyright, 55/60 date
 * and time, 25 keywords...) as Photoshop writes them: an APP13 segment right after the start of image.
 */
export function withIptc(jpeg: Buffer, records: [tag: number, value: string][]): Buffer {
	const data = Buffer.concat(
		records.map(([tag, value]) => {
			const bytes = Buffer.from(value, 'utf8');
			return Buffer.concat([Buffer.from([0x1c, 0x02, tag, bytes.length >> 8, bytes.length & 0xff]), bytes]);
		}),
	);
	const size = Buffer.alloc(4);
	size.writeUInt32BE(data.length);
	// An image resource block: `8BIM`, resource 0x0404 (IPTC), an empty name, the size, the data padded to even.
	const block = Buffer.concat([Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0, 0]), size, data, Buffer.alloc(data.length % 2)]);
	const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), block]);
	const length = Buffer.alloc(2);
	length.writeUInt16BE(payload.length + 2);
	return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xed]), length, payload, jpeg.subarray(2)]);
}
