import { startConsole } from '../../shared/start-console';
import { CONSOLE_TITLE, OperatorFrame } from './frame';
import { routes } from './routes';

void startConsole(CONSOLE_TITLE, routes, () => <OperatorFrame />);
