import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  SetMetadata,
  type CustomDecorator,
} from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { DrfException } from '../drf/exceptions';
import { UsersService } from '../users/users.service';
import { actingPrincipal, ON_BEHALF_OF } from './on-behalf-of';
import { type Principal } from './tokens.service';

/**
 * What an inspector may do on a route (supervisors may do everything):
 * - `read` (the default): GET, HEAD and OPTIONS;
 * - `read-and-create`: those and POST (check records); like a DRF permission class it looks at the method only,
 *   so a POST to a record's detail path is then 405, as for a supervisor;
 * - `none`: nothing (user administration);
 * - `per-object`: every method; the handler decides per object (corrective actions: the assignee's own).
 */
export type InspectorAccess = 'none' | 'read' | 'read-and-create' | 'per-object';

const INSPECTOR_ACCESS = 'inspection-api:inspector-access';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Sets what inspectors may do on a controller or a handler (the handler's setting wins). */
export const InspectorsMay = (access: InspectorAccess): CustomDecorator<string> =>
  SetMetadata(INSPECTOR_ACCESS, access);

/** DRF's PermissionDenied. */
export const permissionDenied = (): DrfException =>
  new DrfException(403, { detail: 'You do not have permission to perform this action.' });

interface GuardedRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  user?: Principal;
}

/**
 * The role check, DRF's `check_permissions`: after authentication, before the method is dispatched (so an
 * inspector's PUT on a list is 403, not 405) and before the object is looked up (403, not 404). A service account's
 * `X-On-Behalf-Of` first makes the request that person's (`on-behalf-of.ts`), so their role is the one checked;
 * such a request is answered asynchronously (the fast path awaits it as Nest does).
 */
@Injectable()
export class RoleAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly users: UsersService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    const onBehalfOf = request.headers?.[ON_BEHALF_OF];
    if (request.user && onBehalfOf !== undefined)
      return actingPrincipal(request.user, onBehalfOf, this.users).then((acting) => {
        request.user = acting;
        return this.roleAllows(context, acting, request.method);
      });
    return this.roleAllows(context, request.user, request.method);
  }

  private roleAllows(context: ExecutionContext, user: Principal | undefined, method: string): boolean {
    // Public routes (tokens, media) have no principal; every other route was authenticated by the guard before.
    if (!user || user.role === 'supervisor') return true;
    const access =
      this.reflector.getAllAndOverride<InspectorAccess | undefined>(INSPECTOR_ACCESS, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'read';
    if (access === 'per-object') return true;
    if (access !== 'none' && SAFE_METHODS.has(method)) return true;
    if (access === 'read-and-create' && method === 'POST') return true;
    throw permissionDenied();
  }
}

/**
 * Registers RoleAccessGuard as a global guard. Import it after JwtAuthModule: Nest runs global guards in the
 * order their modules were scanned, and the role check needs the authenticated principal.
 */
@Module({
  // One instance, global and exported.
  providers: [RoleAccessGuard, { provide: APP_GUARD, useExisting: RoleAccessGuard }],
  exports: [RoleAccessGuard],
})
export class RoleAccessModule {}
