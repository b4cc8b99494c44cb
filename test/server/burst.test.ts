// n8n's declarative engine, and its HTTP Request node, send the request of every input item at once:
// a bulk send of N items is N connections opened together. The gateway answers every one and
// stores the sends in the order they arrive.
import net from 'node:net';
import type { App } from '../../server/src/app';
import { client, connectedDevice, eventually, startGateway, type Device } from '../helpers/server';

const BURST = 2000;

let server: App;
let device: Device;

beforeAll(async () => {
	({ server } = await startGateway());
	device = await connectedDevice(server, 'burst');
});

afterAll(() => server.close());

/** A connection to the server, open and idle. */
function connect(): Promise<net.Socket> {
	const { port } = new URL(server.url);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
		socket.once('error', reject);
	});
}

/** The status code of the one answer the connection gets before the server closes it. */
function status(socket: net.Socket): Promise<number> {
	return new Promise((resolve, reject) => {
		let data = '';
		socket.on('data', (chunk) => (data += chunk.toString()));
		socket.on('error', reject);
		socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
	});
}

function sendText(i: number): string {
	const body = JSON.stringify({ number: `55119000${String(i).padStart(5, '0')}`, text: `burst ${i}`, track_id: String(i) });
	return [
		'POST /wp-json/wdm/v1/send/text HTTP/1.1',
		'Host: 127.0.0.1',
		`token: ${device.token}`,
		'Content-Type: application/json',
		`Content-Length: ${Buffer.byteLength(body)}`,
		'Connection: close',
		'',
		body,
	].join('\r\n');
}

test(`a burst of ${BURST} connections, one send each: every one answered 200, stored in order of arrival`, async () => {
	// Every connection first, accepted by the server (a client is connected before the server accepts),
	// then the requests written one after another: that is their order of arrival.
	const sockets = await Promise.all(Array.from({ length: BURST }, connect));
	const answers = sockets.map(status);
	const accepted = () => new Promise<number>((resolve) => server.app.server.getConnections((_, count) => resolve(count)));
	await eventually(async () => (await accepted()) >= BURST, 30_000); // (and the set-up's keep-alive ones)
	sockets.forEach((socket, i) => socket.write(sendText(i)));
	const statuses = await Promise.all(answers);
	expect(statuses.filter((code) => code !== 200)).toEqual([]);

	// /message/find lists newest first: reversed, the order the server stored them in.
	const api = client(server.url);
	const stored: Array<{ track_id: string }> = [];
	for (let offset = 0; ; offset += 1000) {
		const page = await api.post('/message/find', { limit: 1000, offset }, { token: device.token });
		stored.push(...page.body.data.messages);
		if (!page.body.data.hasMore) break;
	}
	expect(stored.reverse().map((m) => Number(m.track_id))).toEqual(Array.from({ length: BURST }, (_, i) => i));
}, 120_000);
