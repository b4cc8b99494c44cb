import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { archive } from './archive';
import { remove } from './delete';
import { find } from './find';
import { markRead } from './markRead';
import { mute } from './mute';
import { pin } from './pin';

const operations = [find, archive, markRead, mute, pin, remove];
const direct = directOperations('chat', operations, instanceApi);

export class WdmChat implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Chat',
		name: 'wdmChat',
		icon: { light: 'file:wdmChat.svg', dark: 'file:wdmChat.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Find, archive, pin, mute, mark read and delete the chats of a WDM gateway device',
		defaults: { name: 'WDM Chat' },
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
