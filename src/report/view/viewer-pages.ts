import { renderReportShell, renderRunListShell, reportCsp, reportPageScript } from '../html/html-report.js';
import { REPORT_CSS } from '../html/style.js';

/**
 * The viewer's two pages: shells around the report's own page script, which fetches its data
 * from the viewer's JSON endpoints. The CSP is sent as a header too, where `frame-ancestors`
 * (which a meta tag cannot carry) keeps other sites from framing the viewer.
 */
export interface ViewerPage {
  readonly html: string;
  readonly csp: string;
}

let csp: string | undefined;
const headerCsp = (): string => (csp ??= `${reportCsp(reportPageScript(), REPORT_CSS, 'self')}; frame-ancestors 'none'`);

/** The report page's endpoints for these runs (ids already checked against the run-id pattern). */
export function reportUrls(runs: readonly string[]): { bundle: string; samples: string; detail: string; progress: string } {
  const list = runs.map(encodeURIComponent).join(',');
  return { bundle: `/api/report?runs=${list}`, samples: '/api/runs/{run}/samples', detail: '/api/runs/{run}/samples/{row}', progress: `/api/progress?runs=${list}` };
}

let listPage: ViewerPage | undefined;

export const viewerPage = {
  get list(): ViewerPage {
    listPage ??= { html: renderRunListShell({ runs: '/api/runs', open: '/report?runs={runs}' }), csp: headerCsp() };
    return listPage;
  },
  report(runs: readonly string[]): ViewerPage {
    return { html: renderReportShell(reportUrls(runs)), csp: headerCsp() };
  },
};
