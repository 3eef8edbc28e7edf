// Live pages of the viewer: while a run is in progress, its progress (counts only, cheap) is
// polled every POLL_MS and the page repainted when it moved; polling stops when no run is in progress.

const POLL_MS = 2000;

type PageProgress = import('../../report-shapes.js').RunProgress;

const inProgress = (statuses: readonly string[]): boolean => statuses.some((s) => s === 'running');

/**
 * Polls `url` (JSON) every POLL_MS while `running(answer)` says so, calling `changed` each time
 * the answer differs from the last. The returned element tells the reader whether the page is live.
 */
function pollWhile(url: string, startLive: boolean, running: (answer: unknown) => boolean, changed: (answer: unknown) => Promise<void>): HTMLElement {
  const status = el('p', { class: 'live note', data: { live: startLive ? 'on' : 'off' } });
  let last: string | undefined;
  const say = (live: boolean, text: string): void => {
    status.dataset['live'] = live ? 'on' : 'off';
    status.textContent = text;
  };
  const tick = async (): Promise<void> => {
    let answer: unknown;
    try {
      answer = await fetchJson(url);
    } catch (error) {
      say(true, `live: could not reach the viewer (${String(error)}); trying again`);
      setTimeout(() => void tick(), POLL_MS);
      return;
    }
    const text = JSON.stringify(answer);
    // The first answer is compared with nothing: the page was painted from data read before it, so it is repainted once.
    if (text !== last) await changed(answer).catch((error: unknown) => say(true, `live: could not repaint (${String(error)})`));
    last = text;
    const live = running(answer);
    say(live, live ? `live: in progress, updated ${new Date().toLocaleTimeString('en-GB')}` : 'not in progress: these are its numbers as stored');
    if (live) setTimeout(() => void tick(), POLL_MS);
  };
  if (startLive) {
    say(true, 'live: in progress');
    setTimeout(() => void tick(), POLL_MS);
  } else say(false, 'not in progress: these are its numbers as stored');
  return status;
}

/** A report page's live line: repaints (`repaint`) whenever the runs' progress moves. */
function liveStatus(url: string, statuses: readonly string[], repaint: () => Promise<void>): HTMLElement {
  return pollWhile(url, inProgress(statuses), (answer) => inProgress((answer as PageProgress[]).map((p) => p.status)), repaint);
}
