import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isConnectionLoss } from './connection-loss.js';

const coded = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

test('connection loss: refused, reset, a server shutting down or starting, the driver’s own words; not a statement the server refused', () => {
  for (const lost of [
    coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    coded('ECONNRESET', 'read ECONNRESET'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('57P03', 'the database system is starting up'),
    coded('08006'),
    new Error('Connection terminated unexpectedly'),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('timeout exceeded when trying to connect'),
    new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]),
  ]) {
    assert.equal(isConnectionLoss(lost), true, String((lost as { code?: string }).code ?? lost.message));
  }
  for (const refused of [
    coded('23505', 'duplicate key value violates unique constraint'),
    coded('42P01', 'relation "runs" does not exist'),
    coded('28P01', 'password authentication failed'),
    coded('3D000', 'database "x" does not exist'),
    coded('57014', 'canceling statement due to statement timeout'),
    new Error('invalid input syntax for type json'),
    new AggregateError([]),
    new AggregateError([coded('ECONNREFUSED'), coded('28P01')]),
    undefined,
    'a string',
  ]) {
    assert.equal(isConnectionLoss(refused), false, String(refused instanceof Error ? refused.message : refused));
  }
});
