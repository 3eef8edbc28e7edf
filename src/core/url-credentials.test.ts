import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrlCredentials } from './url-credentials.js';

test('redactUrlCredentials hides the password and credential-named query values of a base URL, keeping the rest', () => {
  assert.equal(redactUrlCredentials('http://u:PASS@host:8000/v1'), 'http://u:***@host:8000/v1');
  assert.equal(redactUrlCredentials('https://h/v1?api_key=K1&key=K2&token=T&sig=S&X-Amz-Signature=A&access_token=B&mode=fast#f'), 'https://h/v1?api_key=***&key=***&token=***&sig=***&X-Amz-Signature=***&access_token=***&mode=fast#f');
  assert.equal(redactUrlCredentials('https://h/v1?sslkey=/path/k.pem&monkey=1'), 'https://h/v1?sslkey=/path/k.pem&monkey=1');
  assert.equal(redactUrlCredentials('https://h/v1?q=sk-known%2Bkey', (v) => v === 'sk-known+key'), 'https://h/v1?q=***');
  assert.equal(redactUrlCredentials('http://host/v1'), 'http://host/v1');
  assert.equal(redactUrlCredentials('not a url :PASS@'), 'not a url :PASS@');
});
