import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { deleteMedia } from './delete';
import { download } from './download';
import { editImage } from './editImage';
import { generateSizes } from './generateSizes';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';
import { upload } from './upload';

const operations = [upload, get, getMany, update, download, editImage, generateSizes, deleteMedia];
const direct = directOperations('media', operations, siteApi);

export class WdmMedia implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Media',
		name: 'wdmMedia',
		icon: { light: 'file:wdmMedia.svg', dark: 'file:wdmMedia.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Upload, list, update, download and delete the media files of the WDM site',
		defaults: { name: 'WDM Media' },
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
