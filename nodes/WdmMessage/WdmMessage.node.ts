import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { deleteMessage } from './delete';
import { download } from './download';
import { edit } from './edit';
import { find } from './find';
import { markRead } from './markRead';
import { setPresence } from './presence';
import { react } from './react';
import { requestPayment } from './requestPayment';
import { sendCarousel } from './sendCarousel';
import { sendContact } from './sendContact';
import { sendLocation } from './sendLocation';
import { sendLocationButton } from './sendLocationButton';
import { sendMedia } from './sendMedia';
import { sendMenu } from './sendMenu';
import { sendPixButton } from './sendPixButton';
import { sendMediaStatus, sendTextStatus } from './sendStatus';
import { sendText } from './sendText';

const operations = [sendText, sendMedia, sendContact, sendLocation, sendTextStatus, sendMediaStatus, sendLocationButton, requestPayment, sendPixButton, sendMenu, sendCarousel, find, download, setPresence, markRead, react, deleteMessage, edit];

// Bulk sends: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directOperations('message', operations, instanceApi);

export class WdmMessage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Message',
		name: 'wdmMessage',
		icon: { light: 'file:wdmMessage.svg', dark: 'file:wdmMessage.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Send and find messages through a WDM gateway device',
		defaults: { name: 'WDM Message' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmInstanceApi', required: true }],
		requestDefaults: gatewayRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
