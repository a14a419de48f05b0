import { mintDevToken } from '@agentwatch/auth';
import { ConsoleServerModule } from '@agentwatch/console-server';
import { DevOidcModule, DevOidcOptions } from '@agentwatch/dev-oidc';
import { DynamicModule, Module } from '@nestjs/common';
import { ProductConsoleConfig } from './config';

export const PRODUCT_USERS = ['analyst@example.com', 'admin@example.com'];

/** The development provider's part for the product console: who signs in, and under which organization. */
export function productSignIn(config: ProductConsoleConfig): DevOidcOptions {
  const { auth } = config;
  return {
    clientId: config.console.oidc.clientId,
    keyDir: auth.devIssuerDir,
    form: {
      console: 'agentwatch product console',
      users: PRODUCT_USERS,
      choice: {
        name: 'organization',
        label: 'Organization',
        control: 'select',
        options: [
          ...config.devOrganizations.map((org) => ({ value: org.id, label: org.name })),
          { value: '', label: 'No organization yet (create one after sign-in)' },
        ],
      },
    },
    // The token `agentwatch dev-token` mints; without the claim the API acts through the memberships.
    accessToken: (user, ttl) =>
      mintDevToken(
        auth.devIssuerDir,
        { sub: user.email, ...(user.choice ? { [auth.orgClaim]: user.choice } : {}) },
        ttl,
      ),
    idTokenClaims: () => ({}),
  };
}

@Module({})
export class ProductConsoleModule {
  static forRoot(config: ProductConsoleConfig): DynamicModule {
    return {
      module: ProductConsoleModule,
      imports: [
        ConsoleServerModule.forRoot(config.console),
        // Only while the SPA signs in with the development provider, which happens only while the
        // cloud API trusts the development issuer (config.ts).
        ...(config.console.oidc.issuer === null ? [DevOidcModule.forRoot(productSignIn(config))] : []),
      ],
    };
  }
}
