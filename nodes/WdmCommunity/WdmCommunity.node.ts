import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { create } from './create';
import { editGroups } from './editGroups';

const operations = [create, editGroups];
const direct = directOperations('community', operations, instanceApi);

export class WdmCommunity implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Community',
		name: 'wdmCommunity',
		icon: { light: 'file:wdmCommunity.svg', dark: 'file:wdmCommunity.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create communities and link groups to them through a WDM gateway device',
		defaults: { name: 'WDM Community' },
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
