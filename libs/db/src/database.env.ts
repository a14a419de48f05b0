import { secretText, urlText } from '@agentwatch/config';

// The variables databaseConfigFromEnv reads (.env.example documents each), validated at start: an
// app's schema spreads this shape next to its own variables.

const POSTGRES = ['postgres', 'postgresql'] as const;

export const databaseEnv = {
  DATABASE_URL: urlText(POSTGRES),
  DATABASE_OWNER_URL: urlText(POSTGRES),
  DATABASE_APP_URL: urlText(POSTGRES),
  DATABASE_PROJECTOR_URL: urlText(POSTGRES),
  DATABASE_CONTROL_URL: urlText(POSTGRES),
  DATABASE_ROLE_PASSWORD: secretText(),
};
