export { teardown as default } from './contract-coverage';
