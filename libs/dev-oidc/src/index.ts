export * from './dev-oidc.module';
export * from './dev-oidc.options';
export * from './domain/sign-in';
export * from './form-body.parser';
export * from './request-origin';
export * from './sign-in-page';
