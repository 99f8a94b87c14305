import { plainReasons } from './inspection-api.errors';

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
