import { useEffect, useState } from 'preact/hooks';
import type { Device, UserApi } from './api';
import { useActions, useLoad } from './hooks';

/** The user's devices: create one, connect it by its QR code (the simulated phone scans it on a click), log out, delete. */
export function DevicesPanel(props: {
	api: UserApi;
	devices: Device[];
	selected: string | null;
	onSelect: (name: string) => void;
}) {
	const { run } = useActions();
	const [name, setName] = useState('');
	const create = async (e: Event) => {
		e.preventDefault();
		if (await run(() => props.api.createDevice(name.trim()))) setName('');
	};
	return (
		<section class="panel devices" aria-label="Devices">
			<h2>Devices</h2>
			<form class="row" onSubmit={create}>
				<input aria-label="New device name" placeholder="new device name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
				<button type="submit">Create device</button>
			</form>
			{props.devices.length === 0 && <p class="empty">No devices yet.</p>}
			<ul class="cards">
				{props.devices.map((device) => (
					<DeviceCard
						key={device.name}
						api={props.api}
						device={device}
						selected={device.name === props.selected}
						onSelect={() => props.onSelect(device.name)}
					/>
				))}
			</ul>
		</section>
	);
}

function DeviceCard({ api, device, selected, onSelect }: { api: UserApi; device: Device; selected: boolean; onSelect: () => void }) {
	const { run } = useActions();
	return (
		<li class={`card${selected ? ' selected' : ''}`} aria-label={`Device ${device.name}`}>
			<div class="row spread">
				<button class="link" onClick={onSelect} aria-pressed={selected}>
					<strong>{device.name}</strong>
				</button>
				<span class={`status ${device.status}`} aria-label="status">
					{device.status}
				</span>
			</div>
			{device.phone && <p class="number">+{device.phone}</p>}
			{device.status === 'connecting' && <QrCode api={api} name={device.name} />}
			<div class="row">
				{device.status === 'disconnected' && <button onClick={() => run(() => api.qr(device.name))}>Connect (show QR code)</button>}
				{device.status === 'connected' && <button onClick={() => run(() => api.logout(device.name))}>Log out</button>}
				<button class="danger" onClick={() => run(() => api.deleteDevice(device.name))}>
					Delete
				</button>
			</div>
		</li>
	);
}

/** The device's current QR code and pair code, and the phone that scans it. */
function QrCode({ api, name }: { api: UserApi; name: string }) {
	const { run } = useActions();
	// A QR code expires: the server gives a new one when asked after that.
	const [round, setRound] = useState(0);
	const { data: qr, error } = useLoad(() => api.qr(name), [name, round]);
	useEffect(() => {
		if (!qr) return;
		const timer = setTimeout(() => setRound((r) => r + 1), Math.max(1000, qr.expiresAt - Date.now()));
		return () => clearTimeout(timer);
	}, [qr]);
	if (error) return <p class="error">{error}</p>;
	if (!qr) return <p class="empty">Loading the QR code…</p>;
	return (
		<div class="qr">
			<img src={qr.qrcode} alt={`QR code of ${name}`} width={176} height={176} />
			<span>
				Pair code <code>{qr.paircode}</code>
			</span>
			<button class="primary" onClick={() => run(() => api.pair(name))}>
				Scan with the phone
			</button>
		</div>
	);
}
