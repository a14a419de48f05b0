import { consoleConfig } from '../vite.shared';

export default consoleConfig('product-console');
