import { Type } from 'typebox';

/**
 * Answers of the OAuth endpoints (FACTS.md §10.9, the SDK's api-endpoints/oauth.d.ts). Their
 * requests are read by the commands, not validated here: a bad one is an RFC 6749 error
 * (`invalid_request`, `unsupported_grant_type`), not the API's `validation_error`.
 */
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const OwnerUser = Type.Union([
  Type.Object(
    {
      object: Type.Literal('user'),
      id: Type.String(),
      type: Type.Literal('person'),
      person: Type.Object({ email: Type.String() }, { additionalProperties: false }),
      name: Nullable(Type.String()),
      avatar_url: Nullable(Type.String()),
    },
    { additionalProperties: false },
  ),
  Type.Object({ object: Type.Literal('user'), id: Type.String() }, { additionalProperties: false }),
]);

export const OAuthTokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    refresh_token: Nullable(Type.String()),
    bot_id: Type.String(),
    workspace_icon: Nullable(Type.String()),
    workspace_name: Nullable(Type.String()),
    workspace_id: Type.String(),
    owner: Type.Object({ type: Type.Literal('user'), user: OwnerUser }, { additionalProperties: false }),
    duplicated_template_id: Nullable(Type.String()),
    request_id: Type.String(),
  },
  { additionalProperties: false },
);

export const OAuthIntrospectResponse = Type.Object(
  { active: Type.Boolean(), scope: Type.Optional(Type.String()), iat: Type.Optional(Type.Integer()), request_id: Type.String() },
  { additionalProperties: false },
);

export const OAuthRevokeResponse = Type.Object({ request_id: Type.String() }, { additionalProperties: false });
