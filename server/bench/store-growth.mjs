/**
 * Benchmark: do reads stay flat as the store grows? The same read routes at 1%, 10% and 100% of
 * BENCH_MESSAGES (default 1,000,000: 10k, 100k and 1M messages).
 *
 *   npm run bench                      (builds server/dist first)
 *   BENCH_MESSAGES=100000 BENCH_SAMPLES=200 node server/bench/store-growth.mjs      (a quick run)
 *
 * What is measured
 *   The server (built, in this process, persisted WAL store) with one paired device. Its store is filled
 *   through the store's own write path (`messages.insert` and `chats.touch`, as a received message is
 *   recorded, in transactions of 10,000 rows, without the HTTP and event work of a real send): 100 chats,
 *   inbound and outbound in turn, every 10th message tracked (`track_source` n8n, its own `track_id`),
 *   plus one document sent through the API for the download route. After each fill step the store runs its
 *   periodic `PRAGMA optimize` (Store.optimize, hourly in a server that runs), as a store that grew over
 *   time would have had.
 *   At each size, BENCH_SAMPLES requests per route, one at a time over one kept-alive connection, each on
 *   a message (chat, track id) drawn at random from the whole store: find by id, by track_id, by chat (a
 *   page of 20), markread (one unread received message each time), download (link) and chat/find.
 *   Routes take turns, one request each, after a warm-up at each size. The baseline of each route is its
 *   own p50 on the smallest store; the figure is the growth ratio p50(largest) / p50(smallest) (target
 *   <= 1.5). A control route in the same turns (GET /labels: same HTTP, auth and device lookup, a constant
 *   read) shows how much the machine itself drifted between sizes (the store is filled in between, minutes
 *   apart on a shared machine); each growth is also shown divided by the control's.
 *   Correctness: every answer 200 with what was asked (the message by its id, messages of the track id or
 *   chat, the messages marked read, the file's link), and the store holds every message filled.
 */
import crypto from 'node:crypto';
import { envNumber, fmt, machine, pairedDevice, quantile, requireFromServer, startReference, writeSection } from './lib.mjs';

const TARGET_GROWTH = 1.5;
const CHATS = 100;
const FILL_TX = 10000;
const WARM_UP = 300;
const CONTROL = 'control: GET /labels';

async function main() {
	const total = Math.round(envNumber('BENCH_MESSAGES', 1_000_000));
	const samples = Math.max(10, Math.round(envNumber('BENCH_SAMPLES', 300)));
	// markread takes a fresh unread message (half of them are) for every measured request at every size.
	if (samples * 2 > total / 100) throw new Error(`BENCH_MESSAGES must be at least ${samples * 200} for ${samples} samples`);
	const sizes = [total / 100, total / 10, total].map(Math.round);
	const { Pool, request } = requireFromServer('undici');
	const ref = await startReference();
	const { store } = ref.app.services;
	const pool = new Pool(ref.url, { connections: 1 });
	const problems = [];
	try {
		const { token } = await pairedDevice(ref.url, 'bench');
		const device = store.devices.byName(store.users.byName('admin').id, 'bench');
		const call = async (path, body) => {
			const res = await request(`${ref.api}${path}`, {
				dispatcher: pool,
				method: body === undefined ? 'GET' : 'POST',
				headers: body === undefined ? { token } : { 'content-type': 'application/json', token },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const answer = await res.body.json();
			if (res.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(body)} answered ${res.statusCode}: ${JSON.stringify(answer)}`);
			return answer.data;
		};
		const doc = await call('/send/media', {
			number: '5511977770000',
			type: 'document',
			file: Buffer.from('bench document\n').toString('base64'),
			docName: 'bench.txt',
			mimetype: 'text/plain',
		});
		const mediaId = doc.id ?? doc.messageid;
		console.log(`store growth bench: ${sizes.join(', ')} messages, ${samples} samples per route; ${machine()}`);

		const chats = Array.from({ length: CHATS }, (_, i) => `55119${String(60000000 + i)}@s.whatsapp.net`);
		const ids = [];
		const unread = [];
		const inboundIds = [];
		const tracked = [];
		const start = Date.now() - total * 1000;
		let filled = 0;
		const fill = (upTo) => {
			while (filled < upTo) {
				store.tx(() => {
					for (const end = Math.min(upTo, filled + FILL_TX); filled < end; filled++) {
						const i = filled;
						const chatid = chats[i % CHATS];
						const inbound = i % 2 === 1;
						const messageid = `3EB0${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
						const id = `${device.phone}:${messageid}`;
						const trackId = i % 10 === 0 ? `order-${i}` : null;
						const timestamp = start + i * 1000;
						store.messages.insert({
							id,
							device_id: device.id,
							messageid,
							chatid,
							sender: inbound ? chatid : `${device.phone}@s.whatsapp.net`,
							from_me: inbound ? 0 : 1,
							is_group: 0,
							message_type: 'text',
							text: `Message ${i} of the growth benchmark`,
							timestamp,
							status: inbound ? 'delivered' : 'read',
							track_source: trackId ? 'n8n' : null,
							track_id: trackId,
							was_sent_by_api: inbound ? 0 : 1,
						});
						store.chats.touch(device.id, { chatid, name: '', isGroup: false }, { timestamp, type: 'text', unread: inbound });
						ids.push(id);
						if (inbound) {
							unread.push(id);
							inboundIds.push(id);
						}
						if (trackId) tracked.push(trackId);
					}
				});
			}
			store.optimize();
		};
		const pick = (list) => list[Math.floor(Math.random() * list.length)];
		/** Takes a random unread message out of the list (each is marked read once). */
		const takeUnread = () => {
			const i = Math.floor(Math.random() * unread.length);
			const id = unread[i];
			unread[i] = unread[unread.length - 1];
			unread.pop();
			return id;
		};

		const routes = {
			'find by id': async () => {
				const id = pick(ids);
				const r = await call('/message/find', { id });
				if (r.messages.length !== 1 || r.messages[0].id !== id) problems.push(`find by id ${id}: ${r.messages.length} messages`);
			},
			'find by track_id': async () => {
				const track_id = pick(tracked);
				const r = await call('/message/find', { track_id, limit: 20 });
				if (r.messages.length !== 1 || r.messages[0].track_id !== track_id) problems.push(`find by track_id ${track_id}: ${r.messages.length} messages`);
			},
			'find by chat': async () => {
				const chatid = pick(chats);
				const r = await call('/message/find', { chatid, limit: 20 });
				// `filled` is a multiple of CHATS: each chat holds filled / CHATS messages.
				if (r.messages.length !== Math.min(20, filled / CHATS) || r.messages.some((m) => m.chatid !== chatid)) problems.push(`find by chat ${chatid}: wrong page`);
			},
			markread: async (warmUp) => {
				if (warmUp) return void (await call('/message/markread', { id: [pick(inboundIds)] }));
				const id = takeUnread();
				const r = await call('/message/markread', { id: [id] });
				if (r.length !== 1 || r[0].id !== id || r[0].status !== 'read') problems.push(`markread ${id}: ${JSON.stringify(r).slice(0, 200)}`);
			},
			download: async () => {
				const r = await call('/message/download', { id: mediaId });
				if (!r.fileURL) problems.push('download: no fileURL');
			},
			'chat/find': async () => {
				const r = await call('/chat/find', { limit: 20 });
				if (r.chats.length !== 20) problems.push(`chat/find: ${r.chats.length} chats`);
			},
			// The control: the same HTTP, auth and device lookup, and a read of the device's five labels, whatever
			// the number of messages. Its own growth is the machine's drift between sizes.
			[CONTROL]: async () => {
				const r = await call('/labels');
				if (r.length !== 5) problems.push(`labels: ${r.length}`);
			},
		};

		const results = {};
		for (const size of sizes) {
			const fillStarted = Date.now();
			fill(size);
			// Routes in turn, one request each, so that a noisy moment of the machine falls on all of them alike.
			// Warm-up first (the JIT, the statement cache, the pages of the new rows): the smallest store must
			// not pay it. The warm-up marks read messages picked at random (read or not: both are looked up).
			const entries = Object.entries(routes);
			for (let i = 0; i < WARM_UP; i++) for (const [, run] of entries) await run(true);
			const times = entries.map(() => new Float64Array(samples));
			for (let i = 0; i < samples; i++) {
				for (const [r, [, run]] of entries.entries()) {
					const t0 = performance.now();
					await run(false);
					times[r][i] = performance.now() - t0;
				}
			}
			const line = [];
			for (const [r, [name]] of entries.entries()) {
				const sorted = times[r].sort();
				(results[name] ??= []).push({ size, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) });
				line.push(`${name} ${fmt(quantile(sorted, 0.5), 2)}/${fmt(quantile(sorted, 0.99), 2)}`);
			}
			console.log(`  ${String(size).padStart(8)} messages (filled in ${fmt((Date.now() - fillStarted) / 1000, 1)} s), p50/p99 ms: ${line.join(', ')}`);
		}

		const control = results[CONTROL];
		const drift = control.at(-1).p50 / control[0].p50;
		const table = [
			`| route | ${sizes.map((s) => `p50 / p99 ms at ${s.toLocaleString('en')}`).join(' | ')} | growth p50 ${sizes.at(-1).toLocaleString('en')} / ${sizes[0].toLocaleString('en')} | growth over the control's |`,
			`|---|${sizes.map(() => '---|').join('')}---|---|`,
		];
		let worst = 0;
		let worstAdjusted = 0;
		for (const [name, rows] of Object.entries(results)) {
			const growth = rows.at(-1).p50 / rows[0].p50;
			if (name !== CONTROL) {
				worst = Math.max(worst, growth);
				worstAdjusted = Math.max(worstAdjusted, growth / drift);
			}
			table.push(`| ${name} | ${rows.map((r) => `${fmt(r.p50, 2)} / ${fmt(r.p99, 2)}`).join(' | ')} | ${fmt(growth, 2)} | ${name === CONTROL ? '' : fmt(growth / drift, 2)} |`);
		}
		const figure =
			`store growth: worst p50 growth ${fmt(worst, 2)}, ${fmt(worstAdjusted, 2)} over the control's (${fmt(drift, 2)}) (target <= ${TARGET_GROWTH})` +
			`${worst <= TARGET_GROWTH ? '' : worstAdjusted <= TARGET_GROWTH ? '  (raw growth ABOVE TARGET, the control drifted as much)' : '  ABOVE TARGET'}`;

		const stored = store.db.prepare('SELECT count(*) AS n FROM messages WHERE device_id = ?').get(device.id).n;
		if (stored !== total + 1) problems.push(`messages stored ${stored} != ${total + 1}`);
		const check = `check: ${stored} messages stored, every answer as asked -> ${problems.length ? 'FAIL: ' + problems.slice(0, 5).join('; ') : 'OK'}`;
		console.log(['', ...table, '', figure, check].join('\n'));
		writeSection('store-growth', { BENCH_MESSAGES: total, BENCH_SAMPLES: samples }, [...table, '', `${figure}.`, '', `${check}.`]);
	} finally {
		await pool.close();
		await ref.close();
	}
	process.exitCode = problems.length ? 1 : 0;
}

await main();
