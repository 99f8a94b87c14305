import { type Principal } from '../auth/tokens.service';
import { type FieldSpec } from '../drf/serializer';
import { CHECK_RECORD_FIELDS } from './dto/check-record.dto';

/**
 * Who a check record says did the check (`checked_by`):
 * - an inspector's record is always theirs: `checked_by` is the signed-in user's name and a `checked_by` in the
 *   body is ignored, as DRF ignores a read-only field;
 * - a supervisor (the console, an import, and the inspection bot's service account, which records the checks
 *   inspectors make by chat under their own names) may set it; left out, it is empty as before.
 */
export function recordFieldsFor(user: Principal | undefined): readonly FieldSpec[] {
  return user?.role === 'inspector'
    ? CHECK_RECORD_FIELDS.filter((field) => field.name !== 'checked_by')
    : CHECK_RECORD_FIELDS;
}

/** The `checked_by` a record is stored with when the user's role fixes it (undefined: as the input says). */
export const fixedCheckedBy = (user: Principal | undefined): string | undefined =>
  user?.role === 'inspector' ? user.username : undefined;
