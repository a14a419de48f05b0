import { ConsoleFrame } from '../../shared/console-frame';
import { startConsole } from '../../shared/start-console';

void startConsole('agentwatch operators', [{ index: true, element: <p>Overview</p> }], () => (
  <ConsoleFrame title="agentwatch operators" nav={[{ label: 'Overview', to: '/' }]} />
));
