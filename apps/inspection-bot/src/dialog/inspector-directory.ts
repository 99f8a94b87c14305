import { type InspectionApi } from '../inspection-api/inspection-api.types';

/** The account an activity comes from: its user name is what records carry as `checked_by`. */
export interface Inspector {
  id: number;
  username: string;
}

const DIRECT_LINE_USER = /^dl_([1-9][0-9]{0,9})$/;
const CACHE_MS = 10_000;

/**
 * Who is speaking, from the activity's `from.id` alone: the chat page embeds `dl_<inspection-api user id>` in the
 * Direct Line token, and the relay (enhanced authentication) stamps that id on everything the page sends, whatever
 * the client wrote. Never the typed text or `from.name`. An id of no active account is nobody. Answers are kept
 * 10 s per id.
 */
export class InspectorDirectory {
  private readonly cache = new Map<string, { inspector: Inspector | undefined; until: number }>();

  constructor(private readonly api: InspectionApi) {}

  async inspectorOf(fromId: string | undefined): Promise<Inspector | undefined> {
    const match = DIRECT_LINE_USER.exec(fromId ?? '');
    if (!match?.[1]) return undefined;
    const now = Date.now();
    const cached = this.cache.get(match[1]);
    if (cached && cached.until > now) return cached.inspector;
    const user = await this.api.findUser(Number(match[1]));
    const inspector = user?.is_active ? { id: user.id, username: user.username } : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(match[1], { inspector, until: now + CACHE_MS });
    return inspector;
  }
}
