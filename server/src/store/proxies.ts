import type { Db } from './db';
import type { ProxyRow } from './types';

/** The proxy a device connects through; no row means the server's default connection. */
export class ProxiesRepo {
	constructor(private db: Db) {}

	ofDevice(deviceId: string): ProxyRow | undefined {
		return this.db.prepare('SELECT * FROM proxies WHERE device_id = ?').get(deviceId) as ProxyRow | undefined;
	}

	set(deviceId: string, url: string): ProxyRow {
		return this.db
			.prepare(
				`INSERT INTO proxies (device_id, url, updated_at) VALUES (?, ?, ?)
				 ON CONFLICT(device_id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at RETURNING *`,
			)
			.get(deviceId, url, Date.now()) as ProxyRow;
	}

	remove(deviceId: string) {
		this.db.prepare('DELETE FROM proxies WHERE device_id = ?').run(deviceId);
	}
}
