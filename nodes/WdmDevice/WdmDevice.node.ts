import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, userApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { create, getMany, getQr, getStatus, logout, remove } from './devices';
import { getWebhooks, setWebhook } from './webhooks';

const operations = [getMany, create, remove, getQr, getStatus, logout, getWebhooks, setWebhook];
const direct = directOperations('device', operations, userApi);

export class WdmDevice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Device',
		name: 'wdmDevice',
		icon: { light: 'file:wdmDevice.svg', dark: 'file:wdmDevice.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, pair and manage WDM gateway devices and their webhooks',
		defaults: { name: 'WDM Device' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmUserApi', required: true }],
		requestDefaults: gatewayRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
