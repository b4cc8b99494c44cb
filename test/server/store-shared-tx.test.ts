import { Store } from '../../server/src/store';

const put = (store: Store, key: string) => store.db.prepare("INSERT INTO meta (key, value) VALUES (?, 'v')").run(key);
const keys = (store: Store) => (store.db.prepare('SELECT key FROM meta ORDER BY key').all() as { key: string }[]).map((r) => r.key);

test('units queued in one turn share a commit; one that throws is rolled back alone', async () => {
	const store = Store.open(':memory:');
	let shared = false;
	const first = store.txShared(() => {
		put(store, 'a');
		return 'first';
	});
	const failing = store.txShared(() => {
		put(store, 'b');
		throw new Error('refused');
	});
	const last = store.txShared(() => {
		put(store, 'c');
		shared = store.db.inTransaction;
		return 'last';
	});
	await expect(first).resolves.toBe('first');
	await expect(failing).rejects.toThrow('refused');
	await expect(last).resolves.toBe('last');
	expect(shared).toBe(true);
	expect(keys(store)).toEqual(['a', 'c']);
	expect(store.db.inTransaction).toBe(false);
	store.close();
});

test('a unit that breaks the whole transaction fails every unit of the group', async () => {
	const store = Store.open(':memory:');
	const ok = store.txShared(() => put(store, 'a'));
	const breaking = store.txShared(() => {
		// As SQLite does on I/O errors or a full disk: the transaction is gone.
		store.db.exec('ROLLBACK');
		throw new Error('disk I/O error');
	});
	await expect(ok).rejects.toThrow('disk I/O error');
	await expect(breaking).rejects.toThrow('disk I/O error');
	expect(keys(store)).toEqual([]);
	store.close();
});

test('a unit alone in its turn commits by itself, or is rolled back and rejected alone', async () => {
	const store = Store.open(':memory:');
	const alone = store.txShared(() => {
		put(store, 'a');
		return 'alone';
	});
	await expect(alone).resolves.toBe('alone');
	const failing = store.txShared(() => {
		put(store, 'b');
		throw new Error('refused');
	});
	await expect(failing).rejects.toThrow('refused');
	expect(keys(store)).toEqual(['a']);
	expect(store.db.inTransaction).toBe(false);
	// The store takes the next units as before.
	await store.txShared(() => put(store, 'c'));
	expect(keys(store)).toEqual(['a', 'c']);
	store.close();
});

test('units that refuse before writing share a commit without savepoints; a refusal is rejected alone', async () => {
	const store = Store.open(':memory:');
	const checked = { refusesBeforeWriting: true };
	const first = store.txShared(() => put(store, 'a'), checked);
	const refused = store.txShared(() => {
		throw new Error('refused');
	}, checked);
	// A statement that fails writes nothing: SQLite undoes it by itself, so it counts as a refusal too.
	const duplicate = store.txShared(() => put(store, 'a'), checked);
	// With and without the option in one group.
	const guarded = store.txShared(() => {
		put(store, 'b');
		throw new Error('refused after writing, in its savepoint');
	});
	const last = store.txShared(() => put(store, 'c'), checked);
	await expect(first).resolves.toBeDefined();
	await expect(refused).rejects.toThrow('refused');
	// better-sqlite3's error class may come from another suite's module registry (jest's worker is reused): matched by its message.
	await expect(duplicate).rejects.toMatchObject({ message: expect.stringMatching(/UNIQUE constraint failed/) });
	await expect(guarded).rejects.toThrow('in its savepoint');
	await expect(last).resolves.toBeDefined();
	expect(keys(store)).toEqual(['a', 'c']);
	expect(store.db.inTransaction).toBe(false);
	store.close();
});

test('a unit that said it refuses before writing but throws after a write rolls back the whole group', async () => {
	const store = Store.open(':memory:');
	const checked = { refusesBeforeWriting: true };
	const before = store.txShared(() => put(store, 'a'), checked);
	const broken = store.txShared(() => {
		put(store, 'b');
		throw new Error('failed after writing');
	}, checked);
	const after = store.txShared(() => put(store, 'c'));
	await expect(broken).rejects.toThrow('failed after writing');
	await expect(before).rejects.toThrow('another unit of it failed after writing');
	await expect(after).rejects.toThrow('another unit of it failed after writing');
	expect(keys(store)).toEqual([]);
	expect(store.db.inTransaction).toBe(false);
	// The store takes the next units as before.
	await store.txShared(() => put(store, 'd'), checked);
	expect(keys(store)).toEqual(['d']);
	store.close();
});
