import { DueWorker } from '../../server/src/util/due-worker';

test('a run that fails is retried after a pause, not in a tight loop', async () => {
	let runs = 0;
	const errors: unknown[] = [];
	const worker = new DueWorker(
		() => Date.now(), // always due
		() => {
			runs++;
			throw new Error('store is locked');
		},
		(error) => errors.push(error),
	);
	worker.wake();
	await new Promise((resolve) => setTimeout(resolve, 1500));
	await worker.stop();
	expect(runs).toBe(2);
	expect(errors).toHaveLength(2);
});
