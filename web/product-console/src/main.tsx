import { ConsoleFrame } from '../../shared/console-frame';
import { startConsole } from '../../shared/start-console';

void startConsole('agentwatch', [{ index: true, element: <p>Overview</p> }], () => (
  <ConsoleFrame title="agentwatch" nav={[{ label: 'Overview', to: '/' }]} />
));
