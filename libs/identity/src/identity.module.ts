import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApiKeysController } from './api-key-routes/api-keys.controller';
import { CreateApiKeyHandler } from './api-key-routes/create-api-key';
import { ListApiKeysHandler } from './api-key-routes/list-api-keys';
import { RevokeApiKeyHandler } from './api-key-routes/revoke-api-key';
import { CreateDeployTokenHandler } from './deploy-tokens/create-deploy-token';
import { DeployTokensController } from './deploy-tokens/deploy-tokens.controller';
import { ListDeployTokensHandler } from './deploy-tokens/list-deploy-tokens';
import { RevokeDeployTokenHandler } from './deploy-tokens/revoke-deploy-token';
import { Checkins } from './machines/checkins';
import { ListMachinesHandler } from './machines/list-machines';
import { MachinesController } from './machines/machines.controller';
import { RegisterMachineHandler } from './machines/register-machine';
import { RevokeMachineHandler } from './machines/revoke-machine';
import { CreateOrganizationHandler } from './organizations/create-organization';
import { GetOrganizationHandler } from './organizations/get-organization';
import { OrganizationsController } from './organizations/organizations.controller';

/** The cloud API's identity routes: organizations, deploy tokens, machine enrollment, scoring-API keys. */
@Module({
  imports: [CqrsModule],
  controllers: [OrganizationsController, DeployTokensController, MachinesController, ApiKeysController],
  providers: [
    Checkins,
    CreateOrganizationHandler,
    GetOrganizationHandler,
    CreateDeployTokenHandler,
    ListDeployTokensHandler,
    RevokeDeployTokenHandler,
    RegisterMachineHandler,
    RevokeMachineHandler,
    ListMachinesHandler,
    CreateApiKeyHandler,
    ListApiKeysHandler,
    RevokeApiKeyHandler,
  ],
  exports: [Checkins],
})
export class IdentityApiModule {}
