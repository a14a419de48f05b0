import { ConsoleFrame } from '../../shared/console-frame';
import { startConsole } from '../../shared/start-console';
import { OrganizationGate } from './components/organization-gate';
import { NAV, routes } from './routes';

void startConsole('agentwatch', routes, () => (
  <OrganizationGate>
    <ConsoleFrame title="agentwatch" nav={NAV} />
  </OrganizationGate>
));
