import { parseNetworks, refusedAddress } from './webhook-address';

describe('the webhook address rule', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('reaches public %s', (address) => {
    expect(refusedAddress(address, [])).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address, [])).toContain(`a ${range} address`);
  });

  it('lets an operator open networks', () => {
    const allowed = parseNetworks(['127.0.0.1/32', '10.0.0.0/8']);
    expect(refusedAddress('127.0.0.1', allowed)).toBeUndefined();
    expect(refusedAddress('::ffff:127.0.0.1', allowed)).toBeUndefined();
    expect(refusedAddress('10.200.0.1', allowed)).toBeUndefined();
    expect(refusedAddress('127.0.0.2', allowed)).toContain('loopback');
    expect(refusedAddress('::1', allowed)).toContain('loopback');
  });

  it('refuses what is not an address', () => {
    expect(refusedAddress('example.com', [])).toContain('not an IP address');
  });
});
