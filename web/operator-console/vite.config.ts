import { consoleConfig } from '../vite.shared';

export default consoleConfig('operator-console');
