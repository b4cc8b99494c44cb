import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults } from '../shared/gateway';
import { operationProperties } from '../shared/operations';
import { download } from './download';
import { find } from './find';
import { setPresence } from './presence';
import { sendMedia } from './sendMedia';
import { sendText } from './sendText';

export class WdmMessage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Message',
		name: 'wdmMessage',
		icon: { light: 'file:wdmMessage.svg', dark: 'file:wdmMessage.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Send and find messages through a WDM gateway device',
		defaults: { name: 'WDM Message' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmInstanceApi', required: true }],
		requestDefaults: gatewayRequestDefaults,
		properties: operationProperties([sendText, sendMedia, find, download, setPresence]),
	};
}
