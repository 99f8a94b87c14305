import { roleFromClaims } from './oidc-role-mapping';

const mapping = {
  claim: 'groups',
  supervisorValues: ['fieldops-supervisors'],
  inspectorValues: ['fieldops-inspectors'],
};

describe('roleFromClaims', () => {
  it('maps a group list: supervisor wins over inspector', () => {
    expect(roleFromClaims({ groups: ['fieldops-inspectors'] }, mapping)).toBe('inspector');
    expect(roleFromClaims({ groups: ['fieldops-inspectors', 'fieldops-supervisors'] }, mapping)).toBe(
      'supervisor',
    );
  });

  it('refuses a person with none of the values, a missing claim or a claim of another type', () => {
    expect(roleFromClaims({ groups: ['sales'] }, mapping)).toBeUndefined();
    expect(roleFromClaims({}, mapping)).toBeUndefined();
    expect(roleFromClaims({ groups: { name: 'fieldops-inspectors' } }, mapping)).toBeUndefined();
  });

  it('takes a single string and a dotted path (Keycloak realm roles)', () => {
    expect(roleFromClaims({ groups: 'fieldops-supervisors' }, mapping)).toBe('supervisor');
    const keycloak = { ...mapping, claim: 'realm_access.roles' };
    expect(roleFromClaims({ realm_access: { roles: ['fieldops-inspectors'] } }, keycloak)).toBe('inspector');
    expect(roleFromClaims({ 'realm_access.roles': ['fieldops-supervisors'] }, keycloak)).toBe('supervisor');
  });

  it('lets everybody in as an inspector with `*`', () => {
    expect(roleFromClaims({}, { ...mapping, inspectorValues: ['*'] })).toBe('inspector');
    expect(roleFromClaims({ groups: ['fieldops-supervisors'] }, { ...mapping, inspectorValues: ['*'] })).toBe(
      'supervisor',
    );
  });
});
