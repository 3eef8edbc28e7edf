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

test('redactUrlCredentials hides a path segment equal to a known secret (as written or decoded), and only with isSecret', () => {
  const isSecret = (v: string): boolean => v === 'sk-path+key/1' || v === 'sk-plain';
  assert.equal(redactUrlCredentials('https://gw.example/sk-plain/v1', isSecret), 'https://gw.example/***/v1');
  assert.equal(redactUrlCredentials('https://gw.example/v1/sk-path%2Bkey%2F1', isSecret), 'https://gw.example/v1/***');
  assert.equal(redactUrlCredentials('https://u:P@gw.example:8443/sk-plain/v1?api_key=K&x=sk-plain#f', isSecret), 'https://u:***@gw.example:8443/***/v1?api_key=***&x=***#f');
  // A segment that only holds a secret, or a host equal to one, is not a path segment equal to it.
  assert.equal(redactUrlCredentials('https://gw.example/sk-plain-more/v1', isSecret), 'https://gw.example/sk-plain-more/v1');
  assert.equal(redactUrlCredentials('http://sk-plain/v1', isSecret), 'http://sk-plain/v1');
  // Without known secrets, the path stays: its segments say nothing by their names.
  assert.equal(redactUrlCredentials('https://gw.example/sk-plain/v1'), 'https://gw.example/sk-plain/v1');
});
