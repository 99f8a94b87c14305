import { type CheckRecord, type InspectionApi } from '../inspection-api/inspection-api.types';
import { PHOTO_CANDIDATES_OFFERED, recordsAwaitingPhoto } from './photo-candidates';

function record(id: number, photo: string | null, checkedBy = 'alice'): CheckRecord {
  return {
    id,
    status: 'ok',
    value: '',
    note: '',
    photo,
    attachment: null,
    checked_at: '2026-11-27T08:00:00Z',
    checked_by: checkedBy,
    plan: 7,
    device: 3,
    item: id,
  };
}

describe('the records a paperclip photo may be for (after a bot restart)', () => {
  const now = new Date('2026-11-27T14:00:00Z');

  function apiAnswering(records: CheckRecord[]) {
    const recordsBy = jest.fn((_checkedBy: string, _since: string) => Promise.resolve(records));
    return { api: { recordsBy } as unknown as InspectionApi, recordsBy };
  }

  it("asks inspection-api for the inspector's records of the last 12 hours", async () => {
    const { api, recordsBy } = apiAnswering([]);
    await expect(recordsAwaitingPhoto(api, 'alice', now)).resolves.toEqual([]);
    expect(recordsBy).toHaveBeenCalledWith('alice', '2026-11-27T02:00:00.000Z');
  });

  it('keeps those without a photo, in the order the API gives (newest first)', async () => {
    const { api } = apiAnswering([record(9, null), record(8, '/media/photos/8.jpg'), record(7, null)]);
    const ids = (await recordsAwaitingPhoto(api, 'alice', now)).map((candidate) => candidate.id);
    expect(ids).toEqual([9, 7]);
  });

  it("never offers someone else's record", async () => {
    const { api } = apiAnswering([record(9, null, 'bob'), record(7, null)]);
    const ids = (await recordsAwaitingPhoto(api, 'alice', now)).map((candidate) => candidate.id);
    expect(ids).toEqual([7]);
  });

  it(`offers at most ${PHOTO_CANDIDATES_OFFERED}, the newest`, async () => {
    const { api } = apiAnswering([10, 9, 8, 7, 6, 5, 4].map((id) => record(id, null)));
    const ids = (await recordsAwaitingPhoto(api, 'alice', now)).map((candidate) => candidate.id);
    expect(ids).toEqual([10, 9, 8, 7, 6]);
  });
});
