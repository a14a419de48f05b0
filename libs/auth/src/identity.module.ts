import { Module } from '@nestjs/common';
import { ApiKeysController, CreateApiKey } from './api-key-routes/api-keys.controller';
import { DeployTokens } from './deploy-tokens/deploy-tokens';
import { DeployTokensController } from './deploy-tokens/deploy-tokens.controller';
import { Checkins } from './machines/checkins';
import { Machines } from './machines/machines';
import { MachinesController } from './machines/machines.controller';
import { CreateOrganization } from './organizations/create-organization';
import { OrganizationsController } from './organizations/organizations.controller';

/** The cloud API's identity routes: organizations, deploy tokens, machine enrollment, scoring-API keys. */
@Module({
  controllers: [OrganizationsController, DeployTokensController, MachinesController, ApiKeysController],
  providers: [CreateOrganization, DeployTokens, Machines, Checkins, CreateApiKey],
  exports: [Checkins],
})
export class IdentityApiModule {}
