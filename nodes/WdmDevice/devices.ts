import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { base64ToBinary, gatewayRouting, unwrapData } from '../shared/gateway';
import { picker } from '../shared/pickers';

export const deviceField: INodeProperties = picker('device', {
	displayName: 'Device',
	name: 'device',
	description: 'The device (instance): pick it from your devices, or give its name',
});

/** `/devices/{name}...` for the device named in the node. */
export const deviceUrl = (suffix = '') => `=/devices/{{encodeURIComponent($parameter.device)}}${suffix}`;

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many devices',
	description: 'List your devices, with their instance tokens',
	routing: gatewayRouting('GET', '/devices'),
};

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a device',
	description: 'Create a device; the answer carries its instance token',
	routing: gatewayRouting('POST', '/devices'),
	fields: [
		{
			// Not `device`: that names an existing device (and will be picked from a list).
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. shop',
			description: 'Name of the new device: letters, digits, "-" or "_"',
			routing: { send: { type: 'body', property: 'name' } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Profile Name',
					name: 'profileName',
					type: 'string',
					default: '',
					description: 'Name shown to contacts (default: the device name)',
					routing: { send: { type: 'body', property: 'profileName' } },
				},
			],
		},
	],
};

export const remove: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a device',
	description: 'Delete a device with its messages, chats and webhooks',
	routing: gatewayRouting('DELETE', deviceUrl()),
	fields: [deviceField],
};

export const getQr: Operation = {
	name: 'Get QR Code',
	value: 'getQr',
	action: 'Get the QR code of a device',
	description: 'Start pairing: get the QR code (also as a PNG image) and the pair code. A connected device answers as it is, without them.',
	routing: {
		request: { method: 'GET', url: deviceUrl('/qr') },
		output: {
			postReceive: [
				unwrapData,
				// The data URI stays in the JSON too (e.g. for an <img> in an e-mail): it is only a few KB.
				base64ToBinary('qrcode', 'outputPropertyName', { fileName: (d) => `${d.name}-qr.png`, keep: true }),
			],
		},
	},
	fields: [
		deviceField,
		{
			displayName: 'Put QR Image in Field',
			name: 'outputPropertyName',
			type: 'string',
			required: true,
			default: 'qr',
			description: 'Name of the binary property to write the QR code PNG to',
		},
	],
};

export const getStatus: Operation = {
	name: 'Get Status',
	value: 'getStatus',
	action: 'Get the status of a device',
	description: 'Get the connection status of a device',
	routing: gatewayRouting('GET', deviceUrl('/status')),
	fields: [deviceField],
};

export const logout: Operation = {
	name: 'Log Out',
	value: 'logout',
	action: 'Log out a device',
	description: 'Disconnect the messaging account of a device',
	routing: gatewayRouting('POST', deviceUrl('/logout')),
	fields: [deviceField],
};
