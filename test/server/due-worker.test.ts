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

test('many wakes in one turn make one run (an event per outbox row written must not mean a run per row)', async () => {
	let runs = 0;
	const worker = new DueWorker(
		() => undefined, // nothing due after a run
		() => {
			runs++;
		},
		(error) => {
			throw error;
		},
	);
	for (let i = 0; i < 1000; i++) worker.wake();
	await new Promise((resolve) => setTimeout(resolve, 50));
	expect(runs).toBe(1);
	// A wake after that run makes another.
	worker.wake();
	await new Promise((resolve) => setTimeout(resolve, 50));
	expect(runs).toBe(2);
	await worker.stop();
});
