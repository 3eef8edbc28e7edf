import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { parseDetailsPolicy } from '../run-report.js';
import { renderReportShell, reportPageScript, scriptSafeJson } from './html-report.js';

test('script-safe JSON: no <, >, & or line separators left, and it reads back the same', () => {
  const value = { text: '</script><script>alert(1)</script> <!-- & \u2028\u2029 ]]>' };
  const json = scriptSafeJson(value);
  assert.ok(!/[<>&\u2028\u2029]/.test(json), json);
  assert.deepEqual(JSON.parse(json), value);
});

test('the page script is allowed by its sha256 and nothing else runs; a viewer’s shell may fetch from its own origin only', () => {
  const html = renderReportShell({ bundle: '/api/report', samples: '/api/runs/{run}/samples', detail: '/api/runs/{run}/samples/{row}' });
  const hash = createHash('sha256').update(reportPageScript(), 'utf8').digest('base64');
  assert.ok(html.includes(`script-src 'sha256-${hash}'`));
  assert.match(html, /default-src 'none';.*connect-src 'self'/);
  // The page never builds markup from data: no innerHTML, no insertAdjacentHTML, no document.write, no eval.
  assert.ok(!/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/.test(reportPageScript()));
});

test('--details: all, failing or a count', () => {
  assert.deepEqual(parseDetailsPolicy('all'), { mode: 'all' });
  assert.deepEqual(parseDetailsPolicy('failing'), { mode: 'failing' });
  assert.deepEqual(parseDetailsPolicy('25'), { mode: 'limit', limit: 25 });
  assert.throws(() => parseDetailsPolicy('some'), /all, failing or a number/);
});
