// In the e2e tier, like action-moves: it reads inspection-api's own lists in Node next to the console's copies (the
// console's src/ is browser code, built without the API).
import { AUDIT_EVENTS, AUDIT_RESOURCES, EVENT_TYPES } from '@fieldops/inspection-api';
import * as consoleLists from '../src/api/resources';

describe('the lists the console shares with inspection-api', () => {
  it('has the API’s event types, audit resources and audit events, in the API’s order', () => {
    expect(consoleLists.EVENT_TYPES).toEqual(EVENT_TYPES);
    expect(consoleLists.AUDIT_RESOURCES).toEqual(AUDIT_RESOURCES);
    expect(consoleLists.AUDIT_EVENTS).toEqual(AUDIT_EVENTS);
  });
});
