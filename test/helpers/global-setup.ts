export { setup as default } from './contract-coverage';
