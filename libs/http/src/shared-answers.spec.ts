import { OpenAPIObject } from '@nestjs/swagger';
import { documentSharedAnswers } from './shared-answers';

const documentOf = (paths: OpenAPIObject['paths']): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths,
});

describe('documentSharedAnswers', () => {
  it("adds the body parser's answers to methods with a body and the router's 400 to templated paths", () => {
    const doc = documentSharedAnswers(
      documentOf({
        '/v1/things': { post: { responses: { '201': { description: 'created' } } } },
        '/v1/things/{id}': { get: { responses: { '200': { description: 'ok' } } } },
        '/v1/stats': { get: { responses: { '200': { description: 'ok' } } } },
      }),
    );
    expect(Object.keys(doc.paths['/v1/things'].post!.responses).sort()).toEqual(['201', '400', '413', '415']);
    expect(Object.keys(doc.paths['/v1/things/{id}'].get!.responses).sort()).toEqual(['200', '400']);
    expect(Object.keys(doc.paths['/v1/stats'].get!.responses)).toEqual(['200']);
  });

  it("keeps a route's own description of a status", () => {
    const own = { description: 'Invalid body: `{error, details}`' };
    const doc = documentSharedAnswers(documentOf({ '/v1/x': { post: { responses: { '400': own } } } }));
    expect(doc.paths['/v1/x'].post!.responses['400']).toBe(own);
  });
});
