import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { remove } from './delete';
import { get } from './get';
import { set } from './set';

const operations = [get, set, remove];
const direct = directOperations('proxy', operations, instanceApi);

export class WdmProxy implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Proxy',
		name: 'wdmProxy',
		icon: { light: 'file:wdmProxy.svg', dark: 'file:wdmProxy.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Read, set or remove the proxy a WDM gateway device connects through',
		defaults: { name: 'WDM Proxy' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmInstanceApi', required: true }],
		requestDefaults: gatewayRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;
}
