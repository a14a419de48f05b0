import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { AuthorizationCodes } from './authorization-codes';
import { DevIdentityProvider } from './dev-identity-provider';
import { DevOidcController } from './dev-oidc.controller';
import { DevOidcOptions } from './dev-oidc.options';
import { DevSigningKey } from './dev-signing-key';

/**
 * The development OpenID Connect provider at /oidc. A console mounts it only while no real identity
 * provider is configured and the API behind it trusts the development issuer.
 */
@Module({})
export class DevOidcModule implements OnModuleInit {
  constructor(private readonly key: DevSigningKey) {}

  static forRoot(options: DevOidcOptions): DynamicModule {
    return {
      module: DevOidcModule,
      controllers: [DevOidcController],
      providers: [
        { provide: DevOidcOptions, useValue: options },
        { provide: AuthorizationCodes, useFactory: () => new AuthorizationCodes() },
        { provide: DevSigningKey, useFactory: () => new DevSigningKey(options.keyDir) },
        DevIdentityProvider,
      ],
    };
  }

  /** The key pair exists before the first sign-in (`agentwatch setup` usually made it already). */
  onModuleInit(): Promise<void> {
    return this.key.ensure();
  }
}
