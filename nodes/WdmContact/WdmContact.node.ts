import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { checkNumbers, getChatDetails } from './chats';
import { add, getMany, list, remove } from './contacts';

const operations = [getMany, list, add, remove, getChatDetails, checkNumbers];
const direct = directOperations('contact', operations, instanceApi);

export class WdmContact implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Contact',
		name: 'wdmContact',
		icon: { light: 'file:wdmContact.svg', dark: 'file:wdmContact.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Manage the saved contacts of a WDM gateway device and check numbers on the network',
		defaults: { name: 'WDM Contact' },
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
