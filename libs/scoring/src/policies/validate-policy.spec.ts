import { EMPTY_POLICY } from '../domain/policy';
import { ValidatePolicy, ValidatePolicyHandler, validPolicy } from './validate-policy';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';

describe('POST /policies/{customer_id}/validate answers the documented verdict', () => {
  it('for a policy PUT would accept', async () => {
    const answer = await new ValidatePolicyHandler().execute(new ValidatePolicy(ORG, ORG, EMPTY_POLICY));
    // parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
    expect(validPolicy.parse(answer)).toEqual(answer);
  });
});
