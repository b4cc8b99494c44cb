import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { userApi, type Device } from './api';
import { DevicesPanel } from './devices';
import { ActionsContext, type Actions } from './hooks';
import { followEvents } from './live';
import { NetworkPanel } from './network';
import { PhoneView } from './phone';
import { WebhooksPanel } from './webhooks';

/** The key stays for the browser tab only (sessionStorage): closing it signs out. */
const KEY_ITEM = 'wdm-api-key';

/** Events of a device within this time make one reload of its views. */
const RELOAD_AFTER_MS = 150;

function App() {
	const [key, setKey] = useState(() => sessionStorage.getItem(KEY_ITEM) ?? '');
	const signIn = (value: string) => {
		sessionStorage.setItem(KEY_ITEM, value);
		setKey(value);
	};
	const signOut = () => {
		sessionStorage.removeItem(KEY_ITEM);
		setKey('');
	};
	return key ? <Dashboard apiKey={key} onSignOut={signOut} /> : <SignIn onSignIn={signIn} />;
}

/** Nothing is shown before the key is checked against the server (`GET /devices`). */
function SignIn({ onSignIn }: { onSignIn: (key: string) => void }) {
	const [key, setKey] = useState('');
	const [error, setError] = useState<string | null>(null);
	const submit = async (e: Event) => {
		e.preventDefault();
		try {
			await userApi(key.trim()).devices();
			onSignIn(key.trim());
		} catch (err) {
			setError((err as Error).message);
		}
	};
	return (
		<main class="signin">
			<h1>WDM sandbox dashboard</h1>
			<form class="panel stack" onSubmit={submit}>
				<label>
					API key
					<input type="password" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
				</label>
				<button type="submit" class="primary">
					Sign in
				</button>
				{error && (
					<p class="error" role="alert">
						{error}
					</p>
				)}
				<p class="muted">The key the server printed on its first start, or one from <code>wdm-server users create</code>.</p>
			</form>
		</main>
	);
}

function Dashboard({ apiKey, onSignOut }: { apiKey: string; onSignOut: () => void }) {
	const api = useMemo(() => userApi(apiKey), [apiKey]);
	const [devices, setDevices] = useState<Device[]>([]);
	const [selected, setSelected] = useState<string | null>(null);
	// Bumped by each live event of a device: its views load again.
	const [revisions, setRevisions] = useState<Record<string, number>>({});
	// What each contact shows in its chat with each device: `device chatid` -> presence.
	const [typing, setTyping] = useState<Record<string, Record<string, string>>>({});
	const [live, setLive] = useState(false);
	// Counts the stream's openings: after a reconnection every view loads again (events were missed).
	const [generation, setGeneration] = useState(0);
	const revisionOf = (name: string) => `${generation}:${revisions[name] ?? 0}`;
	const [error, setError] = useState<string | null>(null);

	const refresh = useCallback(() => api.devices().then(setDevices, (err: Error) => setError(err.message)), [api]);
	// Devices with events not yet shown: a burst (a bulk send) makes one reload per device, not one per event.
	const changed = useRef(new Set<string>());
	const flush = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
	const changedLater = (device: string) => {
		changed.current.add(device);
		flush.current ??= setTimeout(() => {
			const names = [...changed.current];
			changed.current.clear();
			flush.current = undefined;
			setRevisions((r) => Object.fromEntries([...Object.entries(r), ...names.map((name) => [name, (r[name] ?? 0) + 1])]));
		}, RELOAD_AFTER_MS);
	};
	useEffect(() => {
		void refresh();
		const stop = followEvents(
			apiKey,
			({ event, device, data }) => {
				changedLater(device);
				if (event === 'connection') void refresh();
				const { chatid, sender, presence, fromMe } = data as { chatid?: string; sender?: string; presence?: string; fromMe?: boolean };
				const show = (state: string) => setTyping((t) => ({ ...t, [device]: { ...t[device], [chatid!]: state } }));
				// A contact's own presence (not the device's, which has the device as sender).
				if (event === 'presence' && chatid && sender === chatid) show(presence!);
				// A message from the contact ends its typing, as on a phone.
				if (event === 'messages' && chatid && fromMe === false) show('paused');
			},
			(open) => {
				setLive(open);
				if (open) {
					void refresh();
					setGeneration((g) => g + 1);
				}
			},
		);
		return () => {
			stop();
			clearTimeout(flush.current);
		};
	}, [api]);

	const actions: Actions = useMemo(
		() => ({
			run: async (action) => {
				try {
					await action();
					setError(null);
					void refresh();
					return true;
				} catch (err) {
					setError((err as Error).message);
					return false;
				}
			},
		}),
		[refresh],
	);
	// A device action refreshes its views at once, without waiting for its event.
	const bump = (name: string) => setRevisions((r) => ({ ...r, [name]: (r[name] ?? 0) + 1 }));
	const current = devices.find((d) => d.name === selected) ?? devices.find((d) => d.status === 'connected') ?? devices[0];
	const scoped: Actions = useMemo(
		() => ({
			run: async (action) => {
				const ok = await actions.run(action);
				if (ok && current) bump(current.name);
				return ok;
			},
		}),
		[actions, current?.name],
	);

	return (
		<ActionsContext.Provider value={scoped}>
			<header class="top row spread">
				<h1>WDM sandbox dashboard</h1>
				<span class={`live ${live ? 'on' : 'off'}`} aria-label="live updates">
					{live ? 'live' : 'reconnecting…'}
				</span>
				<button onClick={onSignOut}>Sign out</button>
			</header>
			{error && (
				<p class="error banner" role="alert">
					{error}
				</p>
			)}
			<main class="layout">
				<DevicesPanel api={api} devices={devices} selected={current?.name ?? null} onSelect={setSelected} />
				{current && (
					<div class="device-views">
						{current.status === 'connected' ? (
							<PhoneView api={api} device={current} revision={revisionOf(current.name)} typing={typing[current.name] ?? {}} />
						) : (
							<section class="panel phone">
								<h2>Phone</h2>
								<p class="empty">Connect {current.name} to see its chats: scan its QR code.</p>
							</section>
						)}
						<NetworkPanel api={api} device={current.name} revision={revisionOf(current.name)} />
						<WebhooksPanel api={api} device={current.name} revision={revisionOf(current.name)} />
					</div>
				)}
			</main>
		</ActionsContext.Provider>
	);
}

render(<App />, document.getElementById('app')!);
