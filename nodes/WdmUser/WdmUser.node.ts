import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';
import {
	createAppPassword,
	deleteAllAppPasswords,
	deleteAppPassword,
	getAppPassword,
	getManyAppPasswords,
	introspectAppPassword,
	updateAppPassword,
} from './appPasswords';
import { create, get, getMany, getMe, remove, removeMe, update, updateMe } from './users';

const operations = [
	getMany,
	get,
	getMe,
	create,
	update,
	updateMe,
	remove,
	removeMe,
	createAppPassword,
	getAppPassword,
	getManyAppPasswords,
	updateAppPassword,
	deleteAppPassword,
	deleteAllAppPasswords,
	introspectAppPassword,
];
const direct = directOperations('user', operations, siteApi);

export class WdmUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM User',
		name: 'wdmUser',
		icon: { light: 'file:wdmUser.svg', dark: 'file:wdmUser.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, read, update and delete the users of the WDM site, and their application passwords',
		defaults: { name: 'WDM User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
