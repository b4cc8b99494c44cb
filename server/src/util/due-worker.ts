/** Node fires a timer at once when its delay does not fit in 32 bits; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** After a failed run the work is still due: wait this long rather than retrying in a tight loop. */
const RETRY_AFTER_ERROR_MS = 1000;

/**
 * Runs persisted work when it falls due: `run` handles whatever is due now, then the worker sleeps
 * until `nextDueAt`. `wake` is called when new work is written. Work lives in the store, never only
 * in a timer, so a restart picks it up where it stopped.
 */
export class DueWorker {
	private timer?: NodeJS.Timeout;
	private running?: Promise<void>;
	private again = false;
	private wakeQueued = false;
	private stopped = false;

	constructor(
		private nextDueAt: () => number | undefined,
		private run: () => void | Promise<void>,
		private onError: (error: unknown) => void,
	) {}

	wake() {
		// Many wakes in one turn (an event per outbox row written, thousands in a burst) make one run.
		if (this.stopped || this.wakeQueued) return;
		this.wakeQueued = true;
		setImmediate(() => {
			this.wakeQueued = false;
			void this.pump();
		});
	}

	private async pump() {
		if (this.stopped) return;
		if (this.running) {
			this.again = true;
			return;
		}
		clearTimeout(this.timer);
		let failed = false;
		this.running = (async () => this.run())().catch((error) => {
			failed = true;
			this.onError(error);
		});
		await this.running;
		this.running = undefined;
		if (this.again && !failed) {
			this.again = false;
			return this.wake();
		}
		const due = this.nextDueAt();
		const at = failed && due !== undefined ? Math.max(due, Date.now() + RETRY_AFTER_ERROR_MS) : due;
		if (at !== undefined && !this.stopped) {
			this.timer = setTimeout(() => void this.pump(), Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())));
			this.timer.unref();
		}
	}

	/** Whether it still schedules work (the readiness check asks). */
	get active(): boolean {
		return !this.stopped;
	}

	/** Stops scheduling and waits for the run in progress. */
	async stop() {
		this.stopped = true;
		clearTimeout(this.timer);
		await this.running;
	}
}
