import { secretText, text, urlText } from '@agentwatch/config';

// The variables authConfigFromEnv reads (.env.example documents each), validated at start: the cloud
// API's schema and the CLI's `setup` and `dev-token` spread this shape. The rules that span variables
// (a key set pins an issuer and an audience) live in the builder, which names the variables it refuses.

export const authEnv = {
  AUTH_JWKS_URL: urlText(['https', 'http']),
  AUTH_JWT_ISSUER: text(),
  AUTH_JWT_AUDIENCE: text(),
  AUTH_HS256_SECRET: secretText(32),
  AUTH_ORG_CLAIM: text(),
  AUTH_DEV_ISSUER_DIR: text(),
};
