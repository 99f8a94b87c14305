import { DrfException } from '../drf/exceptions';
import { type UsersService } from '../users/users.service';
import { type Principal } from './tokens.service';

/** The header a service account names the person it acts for with (a user id), as Zendesk's API does. */
export const ON_BEHALF_OF = 'x-on-behalf-of';

export const ONLY_SERVICE_ACCOUNTS = 'Only a service account may act on behalf of another user.';
export const NOT_A_PERSON = 'X-On-Behalf-Of must be the id of an active user who is not a service account.';

const USER_ID = /^[1-9]\d{0,9}$/;

/**
 * Who a request acts as. A service account (INSPECTION_SERVICE_ACCOUNTS: the inspection bot, which relays what
 * inspectors do in the chat) may send `X-On-Behalf-Of: <user id>`: the request then is that person's in every
 * respect (their role and permissions, their name on comments, transitions and the audit trail), so the chat can
 * never do more than the inspector could in the console. Anyone else sending the header, or a header that does not
 * name an active person, is 403 (DRF's PermissionDenied body). Without the header: the signed-in principal.
 */
export async function actingPrincipal(
  principal: Principal,
  header: string | string[] | undefined,
  users: UsersService,
): Promise<Principal> {
  if (!users.isServiceAccount(principal.username)) throw denied(ONLY_SERVICE_ACCOUNTS);
  const value = Array.isArray(header) ? undefined : header?.trim();
  const id = value !== undefined && USER_ID.test(value) ? Number(value) : undefined;
  const user = id === undefined ? undefined : await users.principal(id);
  if (id === undefined || !user?.active || users.isServiceAccount(user.username)) throw denied(NOT_A_PERSON);
  return { userId: id, username: user.username, role: user.role };
}

const denied = (detail: string): DrfException => new DrfException(403, { detail });
