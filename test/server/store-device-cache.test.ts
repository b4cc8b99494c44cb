import { Store } from '../../server/src/store';

/** The devices repository keeps rows read by id, token and name in memory: what it answers must stay current. */
function storeWithDevice() {
	const store = Store.open(':memory:');
	const { user } = store.users.create('owner');
	store.devices.insert({ id: 'd1', user_id: user.id, name: 'shop', profile_name: null }, 'token-1');
	return store;
}

test('a write is seen at once by token and by id', () => {
	const store = storeWithDevice();
	expect(store.devices.byToken('token-1')!.status).toBe('disconnected');
	store.devices.update('d1', { status: 'connected', phone: '5511900000001' });
	expect(store.devices.byToken('token-1')).toMatchObject({ status: 'connected', phone: '5511900000001' });
	expect(store.devices.byId('d1')!.status).toBe('connected');
	store.close();
});

test('a write rolled back leaves the committed row, also when it was read inside the transaction', () => {
	const store = storeWithDevice();
	store.devices.byId('d1');
	expect(() =>
		store.tx(() => {
			store.devices.update('d1', { status: 'connected' });
			expect(store.devices.byId('d1')!.status).toBe('connected');
			throw new Error('rolled back');
		}),
	).toThrow('rolled back');
	expect(store.devices.byId('d1')!.status).toBe('disconnected');
	expect(store.devices.byToken('token-1')!.status).toBe('disconnected');
	store.close();
});

test('a deleted device is gone by token, id and name; a wrong token finds nothing', () => {
	const store = storeWithDevice();
	const owner = store.devices.byToken('token-1')!.user_id;
	expect(store.devices.byName(owner, 'shop')!.id).toBe('d1');
	store.devices.delete('d1');
	expect(store.devices.byToken('token-1')).toBeUndefined();
	expect(store.devices.byId('d1')).toBeUndefined();
	expect(store.devices.byName(owner, 'shop')).toBeUndefined();
	expect(store.devices.byToken('token-2')).toBeUndefined();
	store.close();
});

test('by name: a renamed device answers to its new name only, and names are per user', () => {
	const store = storeWithDevice();
	const owner = store.devices.byId('d1')!.user_id;
	const other = store.users.create('other').user;
	store.devices.insert({ id: 'd2', user_id: other.id, name: 'shop', profile_name: null }, 'token-2');
	expect(store.devices.byName(owner, 'shop')!.id).toBe('d1');
	expect(store.devices.byName(other.id, 'shop')!.id).toBe('d2');
	store.devices.update('d1', { name: 'store' });
	expect(store.devices.byName(owner, 'shop')).toBeUndefined();
	expect(store.devices.byName(owner, 'store')!.id).toBe('d1');
	store.close();
});

test("a deleted user's devices (gone by cascade) are gone by token, id and name", () => {
	const store = storeWithDevice();
	const owner = store.devices.byToken('token-1')!.user_id;
	store.devices.byName(owner, 'shop');
	store.users.delete(owner, null);
	expect(store.devices.byToken('token-1')).toBeUndefined();
	expect(store.devices.byId('d1')).toBeUndefined();
	expect(store.devices.byName(owner, 'shop')).toBeUndefined();
	store.close();
});

test('rows handed out are frozen: nobody can change the shared copy in place', () => {
	const store = storeWithDevice();
	const row = store.devices.byId('d1')!;
	expect(() => Object.assign(row, { status: 'connected' })).toThrow(TypeError);
	expect(store.devices.byId('d1')!.status).toBe('disconnected');
	store.close();
});
