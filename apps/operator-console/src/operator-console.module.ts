import { ConsoleServerModule } from '@agentwatch/console-server';
import { DevOidcModule, DevOidcOptions } from '@agentwatch/dev-oidc';
import { mintDevOperatorToken } from '@agentwatch/tenancy';
import { DynamicModule, Module } from '@nestjs/common';
import { OperatorConsoleConfig } from './config';

// Two operators, because an approval needs a second pair of eyes.
export const OPERATOR_USERS = ['alice@example.com', 'bob@example.com'];

/** The development provider's part for the operator console: who signs in, with which role. */
export function operatorSignIn(config: OperatorConsoleConfig): DevOidcOptions {
  const { operator } = config;
  return {
    clientId: operator.clientId,
    keyDir: operator.devIssuerDir,
    form: {
      console: 'agentwatch operator console',
      users: OPERATOR_USERS,
      choice: {
        name: 'role',
        label: 'Role',
        control: 'radio',
        options: [
          { value: 'operator', label: 'operator' },
          { value: 'viewer', label: 'viewer' },
        ],
      },
    },
    // The control plane's development operator token (checkSignIn admits only the two roles offered).
    accessToken: (user, ttl) =>
      mintDevOperatorToken(operator, { sub: user.email, role: user.choice as 'operator' | 'viewer' }, ttl),
    idTokenClaims: (user) => ({ [operator.roleClaim]: user.choice }),
  };
}

@Module({})
export class OperatorConsoleModule {
  static forRoot(config: OperatorConsoleConfig): DynamicModule {
    return {
      module: OperatorConsoleModule,
      imports: [
        ConsoleServerModule.forRoot(config.console),
        ...(config.console.oidc.issuer === null ? [DevOidcModule.forRoot(operatorSignIn(config))] : []),
      ],
    };
  }
}
