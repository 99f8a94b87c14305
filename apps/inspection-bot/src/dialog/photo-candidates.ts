import { type CheckRecord, type InspectionApi } from '../inspection-api/inspection-api.types';

/** How far back a photo sent with the paperclip looks for its record when the chat does not know it: a shift. */
export const PHOTO_CANDIDATE_WINDOW_MS = 12 * 60 * 60 * 1000;

/** At most this many records are offered as a choice (the newest). */
export const PHOTO_CANDIDATES_OFFERED = 5;

/**
 * The records a photo sent with the paperclip may be for when the conversation does not know its last record (the
 * bot restarted, or another phone made it): the inspector's own records of the last shift that have no photo yet,
 * newest first, read from inspection-api. One is the photo's record; more are asked as a choice; none is said.
 * Never a guess among several.
 */
export async function recordsAwaitingPhoto(
  api: InspectionApi,
  inspector: string,
  now: Date,
): Promise<CheckRecord[]> {
  const since = new Date(now.getTime() - PHOTO_CANDIDATE_WINDOW_MS).toISOString();
  const records = await api.recordsBy(inspector, since);
  return records
    .filter((record) => record.photo === null && record.checked_by === inspector)
    .slice(0, PHOTO_CANDIDATES_OFFERED);
}
