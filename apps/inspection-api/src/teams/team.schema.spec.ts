import { isoTimestamp } from '../database/sql';
import { TEAM_FIELDS, TEAM_INFO } from './dto/team.dto';
import { TEAM_JSON } from './teams.service';

/** What derives from TEAM_SCHEMA is what the teams resource declared by hand before (same wire, same SQL). */
describe('TEAM_SCHEMA', () => {
  it('gives the DRF field table of the writable fields', () => {
    expect(TEAM_FIELDS).toEqual([
      { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 150 },
      { kind: 'pks', name: 'members', required: false, table: 'users', allowEmpty: true },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order", () => {
    expect(JSON.stringify(TEAM_INFO)).toBe(
      JSON.stringify({
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        name: { type: 'string', required: true, read_only: false, label: 'Name', max_length: 150 },
        members: { type: 'field', required: false, read_only: false, label: 'Members' },
        created_at: { type: 'datetime', required: false, read_only: true, label: 'Created at' },
      }),
    );
  });

  it('renders the representation with the same SQL as before', () => {
    expect(TEAM_JSON).toBe(
      `json_build_object('id', t."id", 'name', t."name", 'members', COALESCE((SELECT json_agg(tm."user_id" ORDER BY tm."user_id") FROM "team_members" tm WHERE tm."team_id" = t."id"), '[]'::json), 'created_at', ${isoTimestamp('t."created_at"')})`,
    );
  });
});
