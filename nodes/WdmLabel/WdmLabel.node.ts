import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { edit } from './edit';
import { getMany } from './getMany';
import { addChatLabel, removeChatLabel, setChatLabels } from './setChatLabels';

const operations = [getMany, setChatLabels, addChatLabel, removeChatLabel, edit];
const direct = directOperations('label', operations, instanceApi);

export class WdmLabel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Label',
		name: 'wdmLabel',
		icon: { light: 'file:wdmLabel.svg', dark: 'file:wdmLabel.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'List and edit the labels of a WDM gateway device and label its chats',
		defaults: { name: 'WDM Label' },
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
