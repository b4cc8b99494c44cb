import { createContext } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';

/**
 * Loads data and loads it again whenever `deps` change (the live stream bumps a device's revision);
 * an answer that arrives after a newer one was asked for is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null } {
	const [state, setState] = useState<{ data: T | undefined; error: string | null }>({ data: undefined, error: null });
	const latest = useRef(0);
	useEffect(() => {
		const ask = ++latest.current;
		load().then(
			(data) => ask === latest.current && setState({ data, error: null }),
			(error: Error) => ask === latest.current && setState((s) => ({ data: s.data, error: error.message })),
		);
		// `deps` says when to load again: `load` is a new function at every render.
	}, deps);
	return state;
}

/** Runs a user's action: its failure is shown (the server's sentence), and a success refreshes what it changed. */
export interface Actions {
	run(action: () => Promise<unknown>): Promise<boolean>;
}

export const ActionsContext = createContext<Actions>({ run: async () => false });
export const useActions = () => useContext(ActionsContext);

/** `12:03:45` in the browser's locale. */
export const time = (ms: number | null) => (ms ? new Date(ms).toLocaleTimeString() : '');
