import { Type } from 'typebox';
import { Closed, Id, ListOf, Nullable, Open } from './objectParts.js';

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

const UserBase = { object: Type.Literal('user'), id: Id, name: Nullable(Type.String()), avatar_url: Nullable(Type.String()) };

/** A user (spec "User object"): e-mail only with user_info_with_email; bot details only for the caller's own bot. */
export const UserObject = Type.Union([
  Type.Object(
    {
      ...UserBase,
      type: Type.Literal('person'),
      person: Type.Union([Type.Object({ email: Type.String(), email_verified: Type.Boolean() }, Closed), Type.Object({}, Closed)]),
    },
    Closed,
  ),
  Type.Object(
    {
      ...UserBase,
      type: Type.Literal('bot'),
      bot: Type.Union([
        Type.Object({}, Closed),
        Type.Object(
          {
            owner: Type.Union([
              Type.Object({ type: Type.Literal('workspace'), workspace: Type.Literal(true) }, Closed),
              Type.Object({ type: Type.Literal('user'), user: Open }, Closed),
            ]),
            workspace_id: Id,
            workspace_name: Nullable(Type.String()),
            workspace_limits: Type.Object({ max_file_upload_size_in_bytes: Type.Integer() }, Closed),
          },
          Closed,
        ),
      ]),
    },
    Closed,
  ),
]);

export const UserResponse = UserObject;
export const UserListResponse = ListOf('user', UserObject);
