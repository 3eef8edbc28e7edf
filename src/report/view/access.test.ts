import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessDecision, accessPolicy, hostAllowed, isLoopback, newAccessToken, parseHostHeader, presentedToken, TOKEN_COOKIE, tokensEqual } from './access.js';

const url = (path: string): URL => new URL(path, 'http://viewer.invalid');

describe('viewer access', () => {
  test('loopback binds need no token; any other address gets a fresh random one', () => {
    for (const host of ['127.0.0.1', '127.8.0.1', 'localhost', '::1', '[::1]']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '192.168.1.4', 'example.org']) assert.equal(isLoopback(host), false, host);
    assert.equal(accessPolicy('127.0.0.1', 8080, []).token, undefined);
    const a = accessPolicy('0.0.0.0', 8080, []).token;
    const b = accessPolicy('0.0.0.0', 8080, []).token;
    assert.ok(a && b && a !== b, 'a new token each time');
    assert.match(newAccessToken(), /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  });

  test('Host headers: loopback names and the bound address on the bound port; other names and ports refused', () => {
    const local = accessPolicy('127.0.0.1', 8080, []);
    for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST:8080', '[::1]:8080']) assert.equal(hostAllowed(local, host), true, host);
    for (const host of [undefined, '', 'evil.example:8080', 'evil.example', '127.0.0.1:8081', '127.0.0.1', 'localhost.evil.example:8080', '127.0.0.1:8080@evil', '[zz]:8080', '10.0.0.1:8080'])
      assert.equal(hostAllowed(local, host), false, String(host));
    // Bound to every interface: this machine's own addresses too, never another name.
    const everywhere = accessPolicy('0.0.0.0', 9000, ['127.0.0.1', '192.168.1.4', 'fe80::1']);
    for (const host of ['192.168.1.4:9000', '[fe80::1]:9000', '127.0.0.1:9000']) assert.equal(hostAllowed(everywhere, host), true, host);
    for (const host of ['192.168.1.5:9000', 'rebind.example:9000']) assert.equal(hostAllowed(everywhere, host), false, host);
    assert.deepEqual(parseHostHeader('[::1]:80'), { name: '::1', port: 80 });
    assert.deepEqual(parseHostHeader('Example.org'), { name: 'example.org', port: undefined });
  });

  test('the token: from ?token=, a bearer header or the cookie; compared in constant time; wrong or missing is refused', () => {
    const policy = accessPolicy('0.0.0.0', 9000, [], 'secret-token');
    const host = '127.0.0.1:9000';
    assert.equal(presentedToken(url('/?token=abc'), undefined, undefined), 'abc');
    assert.equal(presentedToken(url('/'), 'Bearer xyz', undefined), 'xyz');
    assert.equal(presentedToken(url('/'), undefined, `other=1; ${TOKEN_COOKIE}=c=d`), 'c=d');
    assert.equal(presentedToken(url('/'), undefined, 'other=1'), undefined);
    assert.equal(accessDecision(policy, { host, url: url('/?token=secret-token') }), 'ok');
    assert.equal(accessDecision(policy, { host, url: url('/api/runs'), cookie: `${TOKEN_COOKIE}=secret-token` }), 'ok');
    assert.equal(accessDecision(policy, { host, url: url('/api/runs'), authorization: 'Bearer secret-token' }), 'ok');
    assert.equal(accessDecision(policy, { host, url: url('/api/runs') }), 'no-token');
    assert.equal(accessDecision(policy, { host, url: url('/?token=secret-toke') }), 'no-token');
    assert.equal(accessDecision(policy, { host, url: url('/?token=') }), 'no-token');
    // The Host check comes first, token or not.
    assert.equal(accessDecision(policy, { host: 'evil.example:9000', url: url('/?token=secret-token') }), 'bad-host');
    assert.equal(tokensEqual('a', 'a'), true);
    assert.equal(tokensEqual('a', 'ab'), false);
  });
});
