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

/**
 * The role check, DRF's `check_permissions`: after authentication, before the method is dispatched (so an
 * inspector's PUT on a list is 403, not 405) and before the object is looked up (403, not 404).
 */
@Injectable()
export class RoleAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ method: string; user?: Principal }>();
    // Public routes (tokens, media) have no principal; every other route was authenticated by the guard before.
    if (!request.user || request.user.role === 'supervisor') return true;
    const access =
      this.reflector.getAllAndOverride<InspectorAccess | undefined>(INSPECTOR_ACCESS, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'read';
    if (access === 'per-object') return true;
    if (access !== 'none' && SAFE_METHODS.has(request.method)) return true;
    if (access === 'read-and-create' && request.method === 'POST') return true;
    throw permissionDenied();
  }
}

/**
 * Registers RoleAccessGuard as a global guard. Import it after JwtAuthModule: Nest runs global guards in the
 * order their modules were scanned, and the role check needs the authenticated principal.
 */
@Module({
  // One instance, global and exported (for pre-routed fronts).
  providers: [RoleAccessGuard, { provide: APP_GUARD, useExisting: RoleAccessGuard }],
  exports: [RoleAccessGuard],
})
export class RoleAccessModule {}
