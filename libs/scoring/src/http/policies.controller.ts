import { ApiKeyAuthenticated, ApiKeyPrincipal, CurrentApiKey } from '@agentwatch/auth';
import { ApiJsonBody } from '@agentwatch/http';
import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { policyRequest } from '../domain/policy';
import { CreatePolicy } from '../policies/create-policy';
import { GetPolicy } from '../policies/get-policy';
import { ListPolicyVersions, policyVersionList } from '../policies/list-policy-versions';
import { ReplacePolicy } from '../policies/replace-policy';
import { policyResponse } from '../policies/save-policy';
import { ValidatePolicy, validPolicy } from '../policies/validate-policy';
import { ScoringAnswers } from './api-answers';

const WRAPPER = '`{customer_id, policies, updated_at, version}`';

const RULES =
  'Every field is optional and defaults to [] (custom_rules to {}). Patterns are `domain:scope:verb` with `*` ' +
  'matching any run of characters. custom_rules values are `{condition, score_impact, description}`: condition is ' +
  'a CEL expression over action, domain, scope, verb, action_type, tool, arguments, decision, session_id, flags, ' +
  'compiled at save time; score_impact is an integer from -100 to 100. Invalid → 422 ' +
  '`{error:"Invalid policy", details:[{path, message}]}`. Another customer’s id → 404.';

@ApiTags('policies')
@Controller('policies')
export class PoliciesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(':customer_id')
  @HttpCode(201)
  @ApiKeyAuthenticated()
  @ApiJsonBody(policyRequest)
  @ApiOperation({ summary: 'Create the customer policy (409 when one exists)', description: RULES })
  @ScoringAnswers(201, WRAPPER, [404, 409, 422, 503], policyResponse)
  create(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string, @Body() body: unknown) {
    return this.commands.execute(new CreatePolicy(key.orgId, customerId, body));
  }

  @Put(':customer_id')
  @ApiKeyAuthenticated()
  @ApiJsonBody(policyRequest)
  @ApiOperation({ summary: 'Replace the customer policy; omitted fields reset to defaults', description: RULES })
  @ScoringAnswers(200, WRAPPER, [404, 422, 503], policyResponse)
  replace(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string, @Body() body: unknown) {
    return this.commands.execute(new ReplacePolicy(key.orgId, customerId, body));
  }

  @Get(':customer_id')
  @ApiKeyAuthenticated()
  @ApiOperation({ summary: 'Get the customer policy (404 when none was set)' })
  @ScoringAnswers(200, WRAPPER, [404], policyResponse)
  get(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string) {
    return this.queries.execute(new GetPolicy(key.orgId, customerId));
  }

  @Get(':customer_id/versions')
  @ApiKeyAuthenticated()
  @ApiOperation({
    summary: 'Every saved version of the customer policy, newest first',
    description:
      '`{versions:[{version, policies, updated_at}]}`: each POST or PUT made one, `policies` holds all seven fields as that ' +
      'version saved them, `updated_at` is when it was saved. No policy yet → `{versions:[]}`. Another customer’s id → 404.',
  })
  @ScoringAnswers(200, '`{versions}`', [404], policyVersionList)
  versions(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string) {
    return this.queries.execute(new ListPolicyVersions(key.orgId, customerId));
  }

  @Post(':customer_id/validate')
  @HttpCode(200)
  @ApiKeyAuthenticated()
  @ApiJsonBody(policyRequest)
  @ApiOperation({
    summary: 'Dry run of PUT: judge a policy body without saving it',
    description: `200 \`{valid: true}\` when PUT would accept the body; otherwise exactly the status and body PUT would answer. Nothing is stored or published. ${RULES}`,
  })
  @ScoringAnswers(200, '`{valid: true}`', [404, 422], validPolicy)
  validate(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string, @Body() body: unknown) {
    return this.queries.execute(new ValidatePolicy(key.orgId, customerId, body));
  }
}
