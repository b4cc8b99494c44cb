import type { Store } from '../store';
import { DueWorker } from '../util/due-worker';
import type { Messaging } from './messaging';

/** The `async` send queue: messages stored as `queued` go out in order when their time comes. */
export class SendQueue {
	readonly worker: DueWorker;

	constructor(store: Store, messaging: Messaging, onError: (error: unknown) => void) {
		this.worker = new DueWorker(
			() => store.messages.nextDueAt(),
			() => {
				for (let batch = store.messages.due(Date.now(), 100); batch.length; batch = store.messages.due(Date.now(), 100)) {
					for (const row of batch) messaging.dispatch(row);
				}
			},
			onError,
		);
	}
}
