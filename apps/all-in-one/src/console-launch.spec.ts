import { withFirstUser } from './console-launch';

describe('withFirstUser', () => {
  const supervisor = { username: 'supervisor', password: 'generated-password' };

  it("makes the demo supervisor inspection-api's first user", () => {
    expect(withFirstUser({ HOST: '127.0.0.1' }, supervisor)).toEqual({
      HOST: '127.0.0.1',
      INSPECTION_ADMIN_USERNAME: 'supervisor',
      INSPECTION_ADMIN_PASSWORD: 'generated-password',
    });
  });

  it('leaves a first user the operator named, and an API without the console, as they are', () => {
    const named = { INSPECTION_ADMIN_USERNAME: 'alice', INSPECTION_ADMIN_PASSWORD: 'a-password' };
    expect(withFirstUser(named, supervisor)).toBe(named);
    expect(withFirstUser({}, undefined)).toEqual({});
  });
});
