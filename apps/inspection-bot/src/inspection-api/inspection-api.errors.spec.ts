import { alreadyAnsweredRecord, InspectionApiRefusal, plainReasons } from './inspection-api.errors';

describe('plainReasons (DRF error bodies in plain sentences)', () => {
  it('labels field errors like Django and keeps detail / non_field_errors unlabelled', () => {
    expect(
      plainReasons(400, {
        checked_by: ['Ensure this field has no more than 150 characters.'],
        status: ['"broken" is not a valid choice.'],
        non_field_errors: ['Invalid data'],
      }),
    ).toEqual([
      'Checked by: Ensure this field has no more than 150 characters.',
      'Status: "broken" is not a valid choice.',
      'Invalid data.',
    ]);
    expect(plainReasons(404, { detail: 'Not found.' })).toEqual(['Not found.']);
    expect(plainReasons(400, { devices: { 0: ['Invalid pk "9" - object does not exist.'] } })).toEqual([
      'Devices: Invalid pk "9" - object does not exist.',
    ]);
  });

  it('falls back to a sentence with the status for bodies without messages', () => {
    expect(plainReasons(413, '')).toEqual(['The inspection service answered with status 413.']);
    expect(plainReasons(400, ['A list message'])).toEqual(['A list message.']);
    expect(plainReasons(400, {})).toEqual(['The inspection service answered with status 400.']);
  });
});

describe('alreadyAnsweredRecord', () => {
  const record = {
    id: 7,
    status: 'ok',
    checked_at: '2026-11-27T08:00:00Z',
    checked_by: 'alice',
    photo: null,
  };

  it("reads the record of inspection-api's 409 already_answered", () => {
    const refusal = new InspectionApiRefusal(409, ['x'], { detail: 'x', code: 'already_answered', record });
    expect(alreadyAnsweredRecord(refusal)).toEqual(record);
  });

  it('is undefined for any other refusal (an Idempotency-Key still in progress is a 409 too)', () => {
    expect(
      alreadyAnsweredRecord(new InspectionApiRefusal(409, ['x'], { detail: 'still processed' })),
    ).toBeUndefined();
    expect(
      alreadyAnsweredRecord(new InspectionApiRefusal(400, ['x'], { code: 'already_answered', record })),
    ).toBeUndefined();
    expect(
      alreadyAnsweredRecord(
        new InspectionApiRefusal(409, ['x'], { code: 'already_answered', record: { id: 'x' } }),
      ),
    ).toBeUndefined();
    expect(alreadyAnsweredRecord(new Error('x'))).toBeUndefined();
  });
});
