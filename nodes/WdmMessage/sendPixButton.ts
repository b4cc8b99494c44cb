import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { commonExcept, numberField, sendOptions } from './fields';

/** The kinds of instant-payment (Pix) key; the gateway checks the key against its kind. */
export const pixTypeField: INodeProperties = {
	displayName: 'Pix Key Type',
	name: 'pixType',
	type: 'options',
	default: 'EVP',
	description: 'Kind of the Pix key; the gateway checks the key against it',
	options: [
		{ name: 'CNPJ (Company ID)', value: 'CNPJ' },
		{ name: 'CPF (Personal ID)', value: 'CPF' },
		{ name: 'Email', value: 'EMAIL' },
		{ name: 'Phone', value: 'PHONE' },
		{ name: 'Random Key (EVP)', value: 'EVP' },
	],
	routing: { send: { type: 'body', property: 'pixType' } },
};

export const pixKeyField: INodeProperties = {
	displayName: 'Pix Key',
	name: 'pixKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. 123e4567-e89b-12d3-a456-426614174000',
	description: 'The key: CPF or CNPJ digits (punctuation allowed), phone in international format, email, or random key (UUID)',
	routing: { send: { type: 'body', property: 'pixKey' } },
};

export const pixNameField: INodeProperties = {
	displayName: 'Receiver Name',
	name: 'pixName',
	type: 'string',
	default: '',
	placeholder: 'e.g. Acme Ltda',
	description: 'Name of who receives the payment (default: Pix)',
	routing: { send: { type: 'body', property: 'pixName' } },
};

/** The common fields the payment routes list: all but forwarding and placeholders. */
export const PAYMENT_COMMON = commonExcept('placeholders', 'forward');

export const sendPixButton: Operation = {
	name: 'Send Pix Button',
	value: 'sendPixButton',
	action: 'Send a Pix key button',
	description: 'Send a button that copies an instant-payment (Pix) key',
	routing: gatewayRouting('POST', '/send/pix-button'),
	fields: [
		numberField,
		{ ...pixTypeField, required: true },
		{ ...pixKeyField, required: true },
		sendOptions([pixNameField], PAYMENT_COMMON),
	],
};
