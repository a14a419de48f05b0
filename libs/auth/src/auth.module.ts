import { DynamicModule, Module } from '@nestjs/common';
import { AuthConfig, assertAuthConfig } from './auth.config';
import { CredentialGuard } from './credential.guard';
import { JwtIdentityResolver } from './jwt-identity.resolver';
import { ServiceTokenVerifier } from './service-token.verifier';

@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig): DynamicModule {
    assertAuthConfig(config);
    const providers = [ServiceTokenVerifier, JwtIdentityResolver, CredentialGuard];
    return {
      module: AuthModule,
      global: true,
      providers: [{ provide: AuthConfig, useValue: config }, ...providers],
      exports: [AuthConfig, ...providers],
    };
  }
}
