import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { body, numberField, sendOptions } from './fields';
import { PAYMENT_COMMON, pixKeyField, pixNameField, pixTypeField } from './sendPixButton';

export const requestPayment: Operation = {
	name: 'Request Payment',
	value: 'requestPayment',
	action: 'Request a payment',
	description: 'Send a payment request payable by Pix key, bank slip or payment link',
	routing: gatewayRouting('POST', '/send/request-payment'),
	fields: [
		numberField,
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			required: true,
			default: 0,
			description: 'Amount to pay, greater than 0, in the currency (BRL unless set in Options)',
			routing: body('amount'),
		},
		sendOptions(
			[
				{
					displayName: 'Currency',
					name: 'currency',
					type: 'string',
					default: 'BRL',
					description: 'Three-letter currency code',
					routing: body('currency'),
				},
				{ displayName: 'Title', name: 'title', type: 'string', default: '', routing: body('title') },
				// Not `text`, which is a caption in the other sends' Options (one declaration per name).
				{ displayName: 'Text', name: 'paymentText', type: 'string', typeOptions: { rows: 3 }, default: '', routing: body('text') },
				{ displayName: 'Footer', name: 'footer', type: 'string', default: '', routing: body('footer') },
				{ displayName: 'Item Name', name: 'itemName', type: 'string', default: '', routing: body('itemName') },
				{ displayName: 'Invoice Number', name: 'invoiceNumber', type: 'string', default: '', routing: body('invoiceNumber') },
				{ ...pixTypeField, description: 'Kind of the Pix key; required with Pix Key' },
				{ ...pixKeyField, description: 'Enables payment by Pix; the key must fit Pix Key Type' },
				pixNameField,
				{
					displayName: 'Payment Link',
					name: 'paymentLink',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://pay.example.com/checkout/42',
					description: 'External checkout page (http or https); enables payment by link',
					routing: body('paymentLink'),
				},
				{
					displayName: 'Bank Slip Code',
					name: 'boletoCode',
					type: 'string',
					default: '',
					description: 'Line code of a bank slip (boleto), 47 or 48 digits; enables payment by bank slip',
					routing: body('boletoCode'),
				},
				{
					displayName: 'Attachment URL',
					name: 'fileUrl',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/boleto.pdf',
					description: 'A file the gateway downloads and attaches, such as the bank slip PDF',
					routing: body('fileUrl'),
				},
				{
					displayName: 'Attachment File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. boleto.pdf',
					routing: body('fileName'),
				},
			],
			PAYMENT_COMMON,
		),
	],
};
